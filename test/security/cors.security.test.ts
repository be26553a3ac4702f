import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestTenant } from '../support/harness.js';

const SHOP = 'https://shop.example';
const OTHER = 'https://other.example';

let harness: Harness;
let shop: TestTenant;
let other: TestTenant;
let closed: TestTenant;

beforeAll(async () => {
  harness = await createHarness();
  shop = await harness.createTenant({ configuration: { corsOrigins: [SHOP] } });
  other = await harness.createTenant({
    configuration: { corsOrigins: [OTHER], rateLimit: { perSecond: 1, burst: 1 } },
  });
  closed = await harness.createTenant();
});
afterAll(() => harness.close());

const preflight = (origin: string, path = '/v1/users/me/wallet') =>
  harness.request(null, 'OPTIONS', path, {
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'authorization, x-api-key',
    },
  });

const corsHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

// docs/api-conventions.md#browsers: "CORS allows the origins in configuration.corsOrigins (none by default); a preflight needs no API key."
describe('preflights', () => {
  it('are answered 204 without an API key, with the CORS headers, for an origin a tenant allows', async () => {
    const response = await preflight(SHOP);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(response.headers.get('access-control-allow-methods')?.split(',')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']),
    );
    expect(response.headers.get('access-control-allow-headers')?.split(',')).toEqual(
      expect.arrayContaining(['Authorization', 'X-Api-Key', 'Content-Type', 'Idempotency-Key']),
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('are answered 204 with no CORS header at all for an origin no tenant allows', async () => {
    for (const origin of ['https://evil.example', 'null', 'https://shop.example.evil.test']) {
      const response = await preflight(origin);
      expect(response.status).toBe(204);
      expect(corsHeaders(response)).toEqual([]);
    }
  });

  it('never ask for an API key, whatever the path', async () => {
    const response = await preflight(OTHER, '/v1/orders');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(OTHER);
  });
});

describe('requests from a browser', () => {
  it("are readable by an origin the key's tenant allows, with the headers a client reads", async () => {
    const response = await harness.request(shop, 'GET', '/v1/event_types', { headers: { Origin: SHOP } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(response.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining([
        'Content-Range',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Retry-After',
        'X-Request-Id',
        'Location',
      ]),
    );
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it("are not readable by another tenant's origin, nor by any origin for a tenant that lists none", async () => {
    const crossed = await harness.request(shop, 'GET', '/v1/event_types', { headers: { Origin: OTHER } });
    expect(crossed.status).toBe(200);
    expect(crossed.headers.get('access-control-allow-origin')).toBeNull();
    const none = await harness.request(closed, 'GET', '/v1/event_types', { headers: { Origin: SHOP } });
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a 429 is readable by the allowed origin, so its script can read Retry-After', async () => {
    const statuses: Response[] = [];
    while (statuses.at(-1)?.status !== 429 && statuses.length < 10) {
      statuses.push(await harness.request(other, 'GET', '/v1/event_types', { headers: { Origin: OTHER } }));
    }
    const refused = statuses.at(-1)!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('access-control-allow-origin')).toBe(OTHER);
    expect(refused.headers.get('retry-after')).toBeTruthy();
  });
});
