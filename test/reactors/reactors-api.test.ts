import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

const reactor = {
  name: 'Double points',
  eventType: 'ORDER_PLACED',
  conditions: { all: [{ fact: 'payload', path: '$.total', operator: 'greaterThan', value: 10 }] },
  reactions: [
    {
      type: 'POINTS',
      points: {
        operation: 'MULTIPLY',
        arguments: [
          { type: 'PATH', value: '$.payload.total' },
          { type: 'NUMBER', value: '2' },
        ],
      },
    },
  ],
};

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:reactors']);
});
afterAll(() => harness.close());

// docs/events.md#reactors: "POST/GET/PATCH/DELETE /v1/reactors (admin:reactors)"
describe('/v1/reactors', () => {
  it('creates, lists, reads, changes and deletes a reactor', async () => {
    const created = await harness.request(tenant, 'POST', '/v1/reactors', { token: admin, body: reactor });
    expect(created.status).toBe(201);
    const { id } = await dataOf<{ id: string }>(created);
    expect(await dataOf(await harness.request(tenant, 'GET', `/v1/reactors/${id}`, { token: admin }))).toMatchObject({
      ...reactor,
      isActive: true,
    });
    const list = await harness.request(
      tenant,
      'GET',
      `/v1/reactors?filter=${encodeURIComponent("eventType:(eq:'ORDER_PLACED')")}`,
      { token: admin },
    );
    expect(list.headers.get('content-range')).toBe('reactor 0-0/1');
    const changed = await harness.request(tenant, 'PATCH', `/v1/reactors/${id}`, {
      token: admin,
      body: { isActive: false, conditions: null },
    });
    expect(await dataOf(changed)).toMatchObject({ isActive: false, conditions: null });
    expect((await harness.request(tenant, 'DELETE', `/v1/reactors/${id}`, { token: admin })).status).toBe(200);
    expect((await harness.request(tenant, 'GET', `/v1/reactors/${id}`, { token: admin })).status).toBe(404);
  });

  it.each([
    ['an unknown event type', { ...reactor, eventType: 'NO_SUCH_TYPE' }, 'eventType'],
    ["conditions outside the engine's language", { ...reactor, conditions: { whenever: true } }, 'conditions'],
    [
      'an unknown operator',
      { ...reactor, conditions: { all: [{ fact: 'payload', path: '$.total', operator: 'isHuge', value: 1 }] } },
      'conditions',
    ],
    [
      'an unknown operation',
      {
        ...reactor,
        reactions: [{ type: 'POINTS', points: { operation: 'DIVIDE', arguments: [{ type: 'NUMBER', value: '1' }] } }],
      },
      'reactions',
    ],
    [
      'a NUMBER that is not one',
      {
        ...reactor,
        reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: 'ten' }] } }],
      },
      'reactions',
    ],
    [
      'a PATH that is not JSONPath',
      {
        ...reactor,
        reactions: [
          { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'PATH', value: 'payload.total' }] } },
        ],
      },
      'reactions',
    ],
    ['no reactions', { ...reactor, reactions: [] }, 'reactions'],
    // docs/dependencies.md: JSONPath never evaluates script; a filter is a comparison of @ fields with values.
    [
      'a PATH with a script filter',
      {
        ...reactor,
        reactions: [
          {
            type: 'POINTS',
            points: {
              operation: 'SUM',
              arguments: [{ type: 'PATH', value: "$.payload.items[?(@.sku.startsWith('X'))].qty" }],
            },
          },
        ],
      },
      'reactions',
    ],
    [
      'a condition path with a script',
      {
        ...reactor,
        conditions: {
          any: [{ all: [{ fact: 'payload', path: '$.items[(@.length-1)].qty', operator: 'equal', value: 1 }] }],
        },
      },
      'conditions',
    ],
  ])('refuses %s with 400 ValidationError naming the field', async (_case, body, field) => {
    // docs/api-conventions.md#errors: "Body validation failures, on every route: 400 ValidationError with data.errors items".
    const response = await harness.request(tenant, 'POST', '/v1/reactors', { token: admin, body });
    expect(response.status).toBe(400);
    const { data } = await jsonOf(response);
    expect(data.name).toBe('ValidationError');
    expect(data.errors[0].property).toMatch(new RegExp(`^${field}\\b`));
  });

  it('a second reactor with the same name is 409; another tenant sees none of ours', async () => {
    await harness.request(tenant, 'POST', '/v1/reactors', { token: admin, body: { ...reactor, name: 'Once' } });
    expect(
      (await harness.request(tenant, 'POST', '/v1/reactors', { token: admin, body: { ...reactor, name: 'Once' } }))
        .status,
    ).toBe(409);
    const other = await harness.createTenant();
    const token = await harness.adminToken(other, ['admin:reactors']);
    expect(await dataOf(await harness.request(other, 'GET', '/v1/reactors', { token }))).toEqual([]);
  });

  it('needs admin:reactors', async () => {
    const token = await harness.adminToken(tenant, ['admin:events']);
    expect((await harness.request(tenant, 'GET', '/v1/reactors', { token })).status).toBe(401);
  });
});
