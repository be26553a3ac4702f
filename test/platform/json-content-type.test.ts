import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../api/server.js';
import { createHarness, dataOf, registerMember, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let secret: string;

const JSON_UTF8 = 'application/json; charset=utf-8';

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users']);
  const created = await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'VISITED', description: 'x', isPrivate: true },
  });
  secret = (await dataOf<{ secret: string }>(created)).secret;
  await registerMember(harness, tenant, admin, 'member-1');
});
afterAll(() => harness.close());

/** A report of a visit by member-1, as the hot path takes it. */
const visit = (headers: Record<string, string> = {}, payload: object = {}) =>
  harness.request(tenant, 'POST', '/v1/events', {
    token: secret,
    body: { type: 'VISITED', subject: 'member-1', payload },
    headers,
  });

// decisions §14: "Every JSON answer is `Content-Type: application/json; charset=utf-8`."
describe('every JSON answer says its charset', () => {
  it('successes, lists, errors, an unknown route, the operations routes and the document', async () => {
    const answers: [string, Response][] = [
      ['GET /health', await harness.request(null, 'GET', '/health')],
      ['GET /ready', await harness.request(null, 'GET', '/ready')],
      ['GET /v1/openapi.json', await harness.request(null, 'GET', '/v1/openapi.json')],
      ['a list', await harness.request(tenant, 'GET', '/v1/event_types')],
      ['a read', await harness.request(tenant, 'GET', '/v1/users/member-1', { token: admin })],
      ['400', await harness.request(tenant, 'POST', '/v1/event_types', { token: admin, body: { name: 1 } })],
      ['401', await harness.request(tenant, 'GET', '/v1/users/member-1')],
      ['403', await harness.request(tenant, 'GET', '/v1/event_types', { apiKey: 'tly_wrong' })],
      ['404 of an unknown route', await harness.request(tenant, 'GET', '/v1/nowhere')],
      ['404 of an unknown method', await harness.request(tenant, 'PUT', '/v1/event_types')],
    ];
    expect(answers.map(([name, response]) => [name, response.headers.get('content-type')])).toEqual(
      answers.map(([name]) => [name, JSON_UTF8]),
    );
  });

  it('the hot path POST /v1/events, its Idempotency-Key replay, its 409, 413 and 429', async () => {
    const first = await visit({ 'Idempotency-Key': 'charset-1' }, { n: 1 });
    expect(first.status).toBe(201);
    const replay = await visit({ 'Idempotency-Key': 'charset-1' }, { n: 1 });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const duplicate = await visit({}, { n: 1 });
    expect(duplicate.status).toBe(409);
    const tooLarge = await visit({}, { pad: 'x'.repeat(300 * 1024) });
    expect(tooLarge.status).toBe(413);
    // A token every 1,000 s: the second request finds the bucket empty, however slow the machine.
    const limited = await harness.createTenant({ configuration: { rateLimit: { perSecond: 0.001, burst: 1 } } });
    await harness.request(limited, 'GET', '/v1/event_types');
    const refused = await harness.request(limited, 'GET', '/v1/event_types');
    expect(refused.status).toBe(429);
    for (const response of [first, replay, duplicate, tooLarge, refused])
      expect(response.headers.get('content-type')).toBe(JSON_UTF8);
  });

  it('over a real socket too, where the answer is written by Node', async () => {
    const api = await startApi(harness.context, 0);
    try {
      const base = `http://127.0.0.1:${api.port}`;
      const reported = await fetch(`${base}/v1/events`, {
        method: 'POST',
        headers: { 'X-Api-Key': tenant.key, Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'VISITED', subject: 'member-1', payload: { n: 2 } }),
      });
      expect(reported.status).toBe(201);
      const unknown = await fetch(`${base}/v1/nowhere`, { headers: { 'X-Api-Key': tenant.key } });
      const health = await fetch(`${base}/health`);
      for (const response of [reported, unknown, health]) expect(response.headers.get('content-type')).toBe(JSON_UTF8);
    } finally {
      await api.close();
    }
  });
});
