import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Counter } from 'prom-client';
import { FAIL_OPEN_METRIC } from '../../shared/platform/rate-limit/redis-fallback.js';
import { createHarness, registerMember, type Harness, type TestTenant } from '../support/harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/** The bound under test: distinct from every other wait, so its timer is found by it. */
const BOUND_MS = 777;

let redis: PrivateRedis;
let proxy: TcpProxy;
let clock: ManualClock;
let harness: Harness;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  // A Redis of this file's own behind a proxy of its own: stopping the shared one would disturb the other files.
  redis = await startPrivateRedis();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(redis.url).port) });
  clock = new ManualClock();
  harness = await createHarness({
    redisUrl: `redis://127.0.0.1:${proxy.port}`,
    rateLimitRedisTimeoutMs: BOUND_MS,
    clock,
  });
  tenant = await harness.createTenant({ configuration: { rateLimit: { perSecond: 1, burst: 5 } } });
  admin = await harness.adminToken(tenant, ['admin:users']);
  await registerMember(harness, tenant, admin, 'member-1');
});
afterAll(async () => {
  try {
    await harness.close();
    await proxy.close();
  } finally {
    await redis.stop();
  }
});

const readWallet = () => harness.request(tenant, 'GET', '/v1/users/member-1/wallet', { token: admin });

async function failOpens(reason: 'timeout' | 'unavailable'): Promise<number> {
  const counter = harness.context.metrics.registry.getSingleMetric(FAIL_OPEN_METRIC) as Counter<'reason'>;
  const { values } = await counter.get();
  return values.find((value) => value.labels.reason === reason)?.value ?? 0;
}

// docs/api-conventions.md#rate-limits: "When Redis is away, the limit does not wait for it".
it('a wallet read waits for a Redis that does not answer only the configured bound, then its own bucket decides', async () => {
  expect((await readWallet()).status).toBe(200);
  const held = proxy.holdFrom('evalsha');
  let settled = false;
  const answer = readWallet().finally(() => (settled = true));
  await held;
  const boundTimer = () => clock.pending().find((timer) => timer.ms === BOUND_MS);
  await expect.poll(boundTimer).toBeDefined();
  expect(settled).toBe(false);
  clock.advance(BOUND_MS);
  const response = await answer;
  expect(response.status).toBe(200);
  expect(response.headers.get('ratelimit-limit')).toBe('5');
  expect(await failOpens('timeout')).toBe(1);
  await proxy.restore();
});

it("with Redis down, a wallet read does not wait at all, is counted, and the process's own bucket still limits", async () => {
  await redis.kill();
  await expect.poll(() => harness.context.redis.status).not.toBe('ready');
  const before = await failOpens('unavailable');
  // The clock never moves: an answer here waited for no bound.
  const response = await readWallet();
  expect(response.status).toBe(200);
  expect(await failOpens('unavailable')).toBe(before + 1);
  // Open to a bound, not without one: this process's bucket of 5 refuses in its turn.
  const statuses: number[] = [];
  while (!statuses.includes(429) && statuses.length < 20) statuses.push((await readWallet()).status);
  expect(statuses.at(-1)).toBe(429);
});

it("once Redis is back, Redis's bucket limits again: a 429 comes, and nothing more is decided without it", async () => {
  await redis.restart();
  await expect.poll(() => harness.context.redis.status, { timeout: 10_000 }).toBe('ready');
  const before = (await failOpens('timeout')) + (await failOpens('unavailable'));
  const statuses: number[] = [];
  // A bucket of 5 filling at 1/s: quick requests spend it within a handful.
  while (!statuses.includes(429) && statuses.length < 20) statuses.push((await readWallet()).status);
  expect(statuses.at(-1)).toBe(429);
  expect((await failOpens('timeout')) + (await failOpens('unavailable'))).toBe(before);
  const keys = await redis.client.keys(`${harness.config.redisPrefix}:rate:1:5:*`);
  expect(keys).toHaveLength(1);
});
