import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../shared/json/nesting-depth.js';
import { createHarness, type Harness, jsonOf, registerMember, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let secret: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors', 'admin:rules']);
  secret = (await jsonOf(await harness.request(tenant, 'POST', '/v1/event_types', { token: admin, body: { name: 'DEEP', description: 'x', isPrivate: true } }))).data.secret;
  await registerMember(harness, tenant, admin, 'member');
});
afterAll(() => harness.close());

/** `{"a":{"a":…1}}` nested `depth` levels, as JSON text: the test's own JSON.stringify would overflow its stack. */
function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A JSON body around nested text: `around` holds `%` where it goes. */
function raw(around: string, inner: string) {
  return { rawBody: around.replace('%', inner), headers: { 'Content-Type': 'application/json' } };
}

// Issue 17, low: "Bodies or payloads nested 8,000–10,000 levels answer 500 …: cap nesting depth at parse time (400) for every JSON body."
describe('JSON nesting depth', () => {
  const deep = (depth: number) => [
    ['POST /v1/events payload', 'POST', '/v1/events', { token: secret, ...raw('{"type":"DEEP","subject":"member","payload":%}', nested(depth - 1)) }],
    ['POST /v1/reactors conditions', 'POST', '/v1/reactors', { token: admin, ...raw('{"name":"R","eventType":"DEEP","reactions":[],"conditions":%}', nested(depth - 1)) }],
    ['POST /v1/users profile attributes', 'POST', '/v1/users', { token: admin, ...raw('{"isRestricted":false,"profile":{"familyName":"F","givenName":"G","emailAddress":"g@example.com","attributes":%}}', nested(depth - 2)) }],
    ['POST /v1/transactions-rule-engine/execute transaction', 'POST', '/v1/transactions-rule-engine/execute', { token: admin, ...raw('{"transaction":%}', nested(depth - 1)) }],
    ['an array body', 'POST', '/v1/event_types', { token: admin, ...raw('%', '['.repeat(depth) + ']'.repeat(depth)) }],
  ] as const;

  it.each(deep(10_000).map(([name]) => [name]))('%s nested 10,000 levels is 400 ValidationError naming the limit', async (name) => {
    const [, method, path, options] = deep(10_000).find(([candidate]) => candidate === name)!;
    const response = await harness.request(tenant, method, path, options);
    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body.status).toBe('fail');
    expect(body.data.errors).toEqual([expect.objectContaining({ property: '(body)', constraints: { maxDepth: expect.stringContaining(`${MAX_JSON_DEPTH} levels`) } })]);
  });

  it(`${MAX_JSON_DEPTH} levels are accepted, one more is not; brackets inside strings do not count`, async () => {
    const report = (payload: string) => harness.request(tenant, 'POST', '/v1/events', { token: secret, ...raw('{"type":"DEEP","subject":"member","payload":%}', payload) });
    expect((await report(nested(MAX_JSON_DEPTH - 1))).status).toBe(201);
    expect((await report(nested(MAX_JSON_DEPTH))).status).toBe(400);
    expect((await report(JSON.stringify({ text: '[{'.repeat(1000) + '\\"\\\\' }))).status).toBe(201);
  });
});
