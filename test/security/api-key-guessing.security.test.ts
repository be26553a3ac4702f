import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDatabase } from '../../shared/platform/db/ensure-database.js';
import { clientBlock, FAILED_KEY_LIMIT } from '../../shared/platform/rate-limit/failed-key-attempts.js';
import { createHarness, type Harness, jsonOf, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
});
afterAll(() => harness.close());

/** GET /v1/event_types as a client at `address` would send it over a socket. */
function fromAddress(address: string, key: string | undefined) {
  return harness.app.request(
    '/v1/event_types',
    { headers: key ? { 'X-Api-Key': key } : {} },
    { incoming: { socket: { remoteAddress: address } } },
  );
}

const guess = () => `tly_${randomBytes(24).toString('base64url')}`;

// Issue 17, low: "Unknown API keys are never rate limited (1,000 random keys, 1,000 × 403, each a
// database lookup): limit failed key attempts per client address."
describe('failed API key attempts, per client address', () => {
  it(`${FAILED_KEY_LIMIT.burst} failed attempts are 403; then the address is 429 with Retry-After, another address is not`, async () => {
    const guesser = '203.0.113.7';
    for (let attempt = 0; attempt < FAILED_KEY_LIMIT.burst; attempt++) {
      expect((await fromAddress(guesser, attempt % 2 ? guess() : undefined)).status).toBe(403);
    }
    const refused = await fromAddress(guesser, guess());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await jsonOf(refused)).data.name).toBe('TooManyRequestsError');
    expect((await fromAddress(guesser, undefined)).status).toBe(429);

    expect((await fromAddress('198.51.100.9', guess())).status).toBe(403);
  });

  it('a valid key is never refused, even from a blocked address (a tenant behind the same NAT as a guesser)', async () => {
    const shared = '192.0.2.44';
    for (let attempt = 0; attempt <= FAILED_KEY_LIMIT.burst; attempt++) await fromAddress(shared, guess());
    expect((await fromAddress(shared, guess())).status).toBe(429);
    expect((await fromAddress(shared, tenant.key)).status).toBe(200);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as IPv4', async () => {
    expect(clientBlock('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientBlock('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientBlock('2001:db8::7')).toBe('2001:db8:0:0::/64');
    expect(clientBlock('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientBlock('203.0.113.9')).toBe('203.0.113.9');
    for (let host = 0; host < FAILED_KEY_LIMIT.burst; host++)
      await fromAddress(`2001:db8:5:6::${host.toString(16)}`, guess());
    expect((await fromAddress('2001:db8:5:6::ffff', guess())).status).toBe(429);
    expect((await fromAddress('2001:db8:5:7::1', guess())).status).toBe(403);
  });
});

describe('failed API key attempts while Redis is away', () => {
  it('a wrong key is still 403, uncounted, rather than waiting for Redis', async () => {
    const away = await createHarness({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const response = await away.app.request(
        '/v1/event_types',
        { headers: { 'X-Api-Key': guess() } },
        { incoming: { socket: { remoteAddress: '203.0.113.50' } } },
      );
      expect(response.status).toBe(403);
    } finally {
      // Not away.close(): closing the queues would wait for a Redis that is not there.
      for (const connection of [away.context.redis, away.context.queueRedis, away.context.reportRedis])
        connection.disconnect();
      await away.context.orm.close();
      await dropDatabase(away.config.databaseUrl);
    }
  });
});
