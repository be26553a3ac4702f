import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { startEntry } from '../support/run-process.js';

let redis: PrivateRedis;
let harness: Harness;

beforeAll(async () => {
  // A Redis of this file's own, killed and restarted under the spawned service.
  redis = await startPrivateRedis();
  harness = await createHarness({ redisUrl: redis.url });
});
afterAll(async () => {
  try {
    await harness.close();
  } finally {
    await redis.stop();
  }
});

/** The service as an operator runs it (`main.ts all`), on this file's database and Redis. */
function startService() {
  return startEntry(
    'main.ts',
    ['all'],
    {
      DATABASE_URL: harness.config.databaseUrl,
      REDIS_URL: redis.url,
      REDIS_PREFIX: harness.config.redisPrefix,
      PLATFORM_TOKEN_SECRET: 'redis-outage-shutdown',
      PORT: '0',
    },
    'workers started',
  );
}

/** The port the service logged it listens on. */
function portOf(logs: string): number {
  return Number(/listening on http:\/\/localhost:(\d+)/.exec(logs)![1]);
}

/** Messages of the log lines at warn or above. */
function warnings(logs: string): string[] {
  return logs
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: string; msg: string })
    .filter((line) => ['warn', 'error', 'fatal'].includes(line.level))
    .map((line) => line.msg);
}

/** Answers GET /health on a keep-alive connection and leaves that connection open and idle. */
function idleConnection(port: number): Promise<Agent> {
  const agent = new Agent({ keepAlive: true });
  return new Promise((resolve, reject) => {
    const probe = request({ host: '127.0.0.1', port, path: '/health', agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(agent));
    });
    probe.on('error', reject);
    probe.end();
  });
}

// docs/operations.md#outages: "a Redis outage is logged as one line per change of state".
// docs/operations.md#shutdown: "SIGTERM … exits 0 … whatever state Redis is in."
// Each test starts main.ts under tsx: seconds alone, several times that beside a busy suite.
describe('a service through a Redis outage and a shutdown', { timeout: 120_000 }, () => {
  it('logs the outage as lost, reconnecting and back, once each; then stops with exit 0 when Redis goes away during the drain', async () => {
    const service = await startService();
    await redis.kill();
    await service.waitForLog('Redis is not answering: reconnecting');
    await redis.restart();
    await service.waitForLog('Redis connection back');
    // Every connection of the process (commands, queues, reports, one per worker, BullMQ's own)
    // retried through the outage; the log says so three times, and nothing else complains.
    expect(warnings(service.logs())).toEqual(['Redis connection lost', 'Redis is not answering: reconnecting']);
    expect(service.logs().match(/Redis connection back/g)).toHaveLength(1);

    // An idle keep-alive connection keeps the drain open for a while (it is not cut: see
    // keep-alive-drain.test.ts), so Redis goes away while the process closes its connections.
    const agent = await idleConnection(portOf(service.logs()));
    service.child.kill('SIGTERM');
    await service.waitForLog('draining');
    await redis.kill();
    const result = await service.done;
    agent.destroy();
    await redis.restart();

    expect(result.stderr).toBe(''); // no unhandled "Connection is closed."
    expect(result.code).toBe(0);
    expect(service.logs()).toContain('"msg":"stopped"');
    expect(service.logs()).not.toContain('drain took longer');
  });

  it('stops with exit 0 when Redis is down before SIGTERM, without waiting on the workers', async () => {
    const service = await startService();
    await redis.kill();
    await service.waitForLog('Redis is not answering: reconnecting');
    service.child.kill('SIGTERM');
    const result = await service.done;
    await redis.restart();

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(service.logs()).toContain('"msg":"stopped"');
    // Not waited for: their jobs in hand stay active in Redis and run again once their lock lapses.
    const leftToExit = service
      .logs()
      .split('\n')
      .filter((line) => line.includes("workers left to the process's exit"))
      .map((line) => JSON.parse(line) as { redisAway: string[]; notWithinDrain: string[] });
    expect(leftToExit).toEqual([
      {
        ...leftToExit[0],
        redisAway: [
          'audit',
          'events',
          'webhooks',
          'ocr',
          'reviews',
          'partner-orders',
          'points-adjustments',
          'recovery',
          'points-expiry',
        ],
        notWithinDrain: [],
      },
    ]);
  });
});
