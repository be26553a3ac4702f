import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedis } from '../../shared/platform/redis/redis.js';
import { TokenBuckets, type RateLimit } from '../../shared/platform/rate-limit/token-bucket.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/** The bound under test: distinct from every other wait, so its timer is found by it. */
const BOUND_MS = 777;
/** A token every 1,000 s: nothing refills while the test runs, so the tokens left count the takes. */
const LIMIT: RateLimit = { perSecond: 0.001, burst: 5 };
const PREFIX = 'test-late-take';
const BUCKET_KEY = `${PREFIX}:rate:${LIMIT.perSecond}:${LIMIT.burst}:client`;

let redis: PrivateRedis;
let proxy: TcpProxy;
let connection: Redis;
let notifications: Redis;
let clock: ManualClock;
let buckets: TokenBuckets;
/** How many times Redis has written the bucket: each take or refund writes it once. */
let bucketWrites = 0;

beforeAll(async () => {
  // A Redis of this file's own, which the test alone writes, behind a proxy that can make it slow.
  redis = await startPrivateRedis();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(redis.url).port) });
  await redis.client.config('SET', 'notify-keyspace-events', 'Kh');
  notifications = redis.client.duplicate();
  await notifications.subscribe(`__keyspace@0__:${BUCKET_KEY}`);
  notifications.on('message', () => (bucketWrites += 1));
  connection = createRedis(`redis://127.0.0.1:${proxy.port}`, 'test-late-take');
  clock = new ManualClock();
  buckets = new TokenBuckets(connection, PREFIX, { timeoutMs: BOUND_MS, clock });
});
afterAll(async () => {
  try {
    connection.disconnect();
    notifications.disconnect();
    await proxy.close();
  } finally {
    await redis.stop();
  }
});

async function tokensInRedis(): Promise<number> {
  return Math.floor(Number(await redis.client.hget(BUCKET_KEY, 'tokens')));
}

// docs/api-conventions.md#rate-limits: "A request waits for its token at most RATE_LIMIT_REDIS_TIMEOUT_MS …; then
// this process's own bucket of the same size decides". A request costs one token, in whichever bucket decided it.
it("a take decided by the process's own bucket after the bound costs nothing in Redis, though Redis takes it late", async () => {
  expect(await buckets.take('client', LIMIT)).toMatchObject({ allowed: true, remaining: 4 });
  // The write's notification comes on another connection, and may arrive after the take's answer.
  await expect.poll(() => bucketWrites, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  expect([bucketWrites, await tokensInRedis()]).toEqual([1, 4]);

  const held = proxy.holdFrom('evalsha');
  const taking = buckets.take('client', LIMIT);
  await held;
  await expect.poll(() => clock.pending().map((timer) => timer.ms)).toEqual([BOUND_MS]);
  clock.advance(BOUND_MS);
  expect(await taking).toMatchObject({ allowed: true });

  // Redis was slow, not gone: the take it was sent reaches it now, and the token it takes is given back.
  proxy.release();
  await expect.poll(() => bucketWrites, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  expect([bucketWrites, await tokensInRedis()]).toEqual([3, 4]);
});
