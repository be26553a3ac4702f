import type { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { closeWorkers } from '../../workers/start-workers.js';

// docs/operations.md#shutdown: a drain ends within its budget. BullMQ's Worker.close can wait for
// ever on a blocking connection Redis dropped (taskforcesh/bullmq#4656), which no test here can
// bring about on demand: a worker whose close never settles stands in for it.
describe('closing workers', () => {
  it('leaves a worker whose close never settles to the process after its grace, and says so', async () => {
    const stuck = { name: 'events', close: () => new Promise<void>(() => {}) };
    const closing = { name: 'webhooks', closed: false, close: async () => void (closing.closed = true) };
    const closed = await closeWorkers([stuck, closing] as unknown as Worker[], 50);
    expect(closing.closed).toBe(true);
    expect(closed).toEqual({ closed: ['webhooks'], late: ['events'], away: [] });
  });
});
