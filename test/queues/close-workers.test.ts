import { EventEmitter } from 'node:events';
import type { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { closeWorkers } from '../../workers/start-workers.js';

// docs/operations.md#shutdown: a drain ends within its budget. BullMQ's Worker.close can wait for
// ever on a blocking connection Redis dropped (taskforcesh/bullmq#4656), which no test here can
// bring about on demand: a worker whose close never settles stands in for it.
describe('closing workers', () => {
  it('leaves a worker whose close never settles to the process after its grace, and says so', async () => {
    const reported: Error[] = [];
    const stuck = Object.assign(new EventEmitter(), { name: 'events', close: () => new Promise<void>(() => {}) });
    stuck.on('error', (error: Error) => reported.push(error));
    const closing = { name: 'webhooks', closed: false, close: async () => void (closing.closed = true) };
    await closeWorkers([stuck, closing] as unknown as Worker[], 50);
    expect(closing.closed).toBe(true);
    expect(reported.map((error) => error.message)).toEqual([
      "the events worker did not close within 50 ms: left to the process's exit",
    ]);
  });
});
