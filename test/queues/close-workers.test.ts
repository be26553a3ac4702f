import { Writable } from 'node:stream';
import type { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { queueCatalog } from '../../shared/job-catalog.js';
import { createLogger } from '../../shared/platform/logging/logger.js';
import { createMetrics } from '../../shared/platform/metrics/metrics.js';
import { startWorker } from '../../shared/platform/queues/worker-runner.js';
import { RedisConnectionLog } from '../../shared/platform/redis/connection-log.js';
import { closeWorkers } from '../../workers/start-workers.js';
import { startPrivateRedis } from '../support/private-redis.js';

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

  // docs/operations.md#shutdown: "A worker whose Redis is away is not waited for".
  it('does not wait for a worker whose Redis is away: its jobs stay in Redis and run again once their lock lapses', async () => {
    const redis = await startPrivateRedis();
    const logged: string[] = [];
    const logger = createLogger(
      'warn',
      new Writable({
        write: (line: Buffer, _encoding, done) => (logged.push(JSON.parse(line.toString()).msg), done()),
      }),
    );
    const worker = startWorker('audit', queueCatalog.audit, async () => {}, {
      redisUrl: redis.url,
      redisPrefix: 'close-workers',
      lockMs: 1000,
      stalledCheckMs: 1000,
      logger,
      metrics: createMetrics(),
      redisConnections: new RedisConnectionLog(logger),
    });
    try {
      await worker.waitUntilReady();
      await redis.kill();
      // Not merely dropped but refused on reconnecting: BullMQ's own close would now wait for ever.
      await expect.poll(() => logged).toContain('Redis is not answering: reconnecting');
      // A grace far beyond the test's timeout: only not waiting for it lets the test pass.
      expect(await closeWorkers([worker], 600_000)).toEqual({ closed: [], late: [], away: ['audit'] });
    } finally {
      await redis.restart();
      await redis.stop();
    }
  });
});
