import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../api/server.js';
import { TokenBuckets } from '../../shared/platform/rate-limit/token-bucket.js';
import { createHarness, type Harness } from '../support/harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness();
  // Connected first: a take waits only a bound for Redis, and these tests are about Redis's buckets.
  await harness.context.redis.ping();
});
afterAll(() => harness.close());

// docs/api-conventions.md#rate-limits: "100 requests per second per API key with a burst of 400 (a token bucket in Redis), overridable per tenant."
describe('the token bucket', () => {
  it('lets a full burst through at once, then refuses, then refills at the sustained rate', async () => {
    const buckets = new TokenBuckets(harness.context.redis, harness.config.redisPrefix);
    const limit = { perSecond: 2, burst: 40 };
    const decisions = await Promise.all(Array.from({ length: 45 }, () => buckets.take('bucket-a', limit)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(40);
    const refused = decisions.find((decision) => !decision.allowed)!;
    expect(refused).toMatchObject({ limit: 40, remaining: 0, resetSeconds: 1 });
    // Three seconds pass for the bucket: its last refill is moved back by them (the clock is Redis's
    // own, token-bucket.ts), rather than the test sleeping, which a busy machine stretches. At 2/s
    // the time the machine itself takes here adds a token or two, no more.
    const bucket = `${harness.config.redisPrefix}:rate:2:40:bucket-a`;
    expect(await harness.context.redis.exists(bucket)).toBe(1);
    await harness.context.redis.hincrby(bucket, 'at', -3000);
    // About 6 tokens came back in 3 s at 2/s; never the whole bucket.
    const after = await Promise.all(Array.from({ length: 20 }, () => buckets.take('bucket-a', limit)));
    const allowed = after.filter((decision) => decision.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(6);
    expect(allowed).toBeLessThanOrEqual(10);
  });

  it('requests arriving together take their tokens together, each told what remains after it', async () => {
    const buckets = new TokenBuckets(harness.context.redis, harness.config.redisPrefix);
    const limit = { perSecond: 100, burst: 400 };
    const decisions = await Promise.all(Array.from({ length: 10 }, () => buckets.take('bucket-together', limit)));
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(decisions.map((decision) => decision.remaining)).toEqual([399, 398, 397, 396, 395, 394, 393, 392, 391, 390]);
  });

  it('holds nothing in the process for a key once its takes are answered, however many keys came', async () => {
    const buckets = new TokenBuckets(harness.context.redis, harness.config.redisPrefix);
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => buckets.take(`address-${index}`, { perSecond: 1, burst: 30 })),
    );
    // Private, read here alone: a flood of client addresses must not grow the process for good.
    expect((buckets as unknown as { buckets: Map<string, unknown> }).buckets.size).toBe(0);
  });

  it('keeps one bucket per key', async () => {
    const buckets = new TokenBuckets(harness.context.redis, harness.config.redisPrefix);
    const limit = { perSecond: 1, burst: 1 };
    expect((await buckets.take('key-x', limit)).allowed).toBe(true);
    expect((await buckets.take('key-x', limit)).allowed).toBe(false);
    expect((await buckets.take('key-y', limit)).allowed).toBe(true);
  });
});

describe('the rate limit on the API', () => {
  it('answers RateLimit-* headers, then 429 TooManyRequestsError with Retry-After, per the tenant override', async () => {
    // At 1/s the six requests would have to take a whole second, not the half of one 2/s allows, for a token to come back between them.
    const tenant = await harness.createTenant({ configuration: { rateLimit: { perSecond: 1, burst: 5 } } });
    const responses = [];
    for (let i = 0; i < 6; i++) responses.push(await harness.request(tenant, 'GET', '/v1/event_types'));
    expect(responses.slice(0, 5).map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(responses[0]!.headers.get('ratelimit-limit')).toBe('5');
    expect(responses[0]!.headers.get('ratelimit-remaining')).toBe('4');
    expect(Number(responses[0]!.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    const refused = responses[5]!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(await refused.json()).toMatchObject({
      status: 'fail',
      data: { name: 'TooManyRequestsError', httpCode: 429 },
    });
  });

  it('the default is 100/s with a burst of 400', async () => {
    const tenant = await harness.createTenant();
    const response = await harness.request(tenant, 'GET', '/v1/event_types');
    expect(response.headers.get('ratelimit-limit')).toBe('400');
    expect(response.headers.get('ratelimit-remaining')).toBe('399');
  });
});

// The headers go straight onto Node's response when the API is served (api/middleware/response-header.ts):
// the same answers over a real socket.
describe('the rate limit and request id headers over HTTP', () => {
  it('a served answer carries X-Request-Id and RateLimit-*, and a refusal its Retry-After', async () => {
    const tenant = await harness.createTenant({ configuration: { rateLimit: { perSecond: 1, burst: 2 } } });
    const api = await startApi(harness.context, 0);
    try {
      const get = () =>
        fetch(`http://127.0.0.1:${api.port}/v1/event_types`, {
          headers: { 'X-Api-Key': tenant.key, 'X-Request-Id': 'served-1' },
        });
      const first = await get();
      expect(first.status).toBe(200);
      expect(first.headers.get('x-request-id')).toBe('served-1');
      expect(first.headers.get('content-type')).toMatch(/^application\/json/);
      expect([first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining')]).toEqual(['2', '1']);
      expect((await get()).status).toBe(200);
      const refused = await get();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-request-id')).toBe('served-1');
      expect(await refused.json()).toMatchObject({ status: 'fail', data: { name: 'TooManyRequestsError' } });
    } finally {
      await api.close();
    }
  });
});
