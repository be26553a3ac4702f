import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHarness,
  dataOf,
  type Harness,
  jsonOf,
  queryOne,
  registerMember,
  type TestTenant,
} from '../support/harness.js';
import { customRule, totalOver } from '../support/rule-definitions.js';

let harness: Harness;
let tenant: TestTenant;
let other: TestTenant;
let admin: string;

const rule = (name: string) => customRule(name, 1, totalOver(100));

interface PatchRoute {
  /** The resource's path, made by creating one through the API. */
  path: string;
  /** Its table, to read the stored row's tenant and timestamps without the API's view. */
  table: string;
  id: string;
}

const routes: Record<string, PatchRoute> = {};

async function created(path: string, body: object): Promise<{ id: string }> {
  const response = await harness.request(tenant, 'POST', path, { token: admin, body });
  expect(response.status, await response.clone().text()).toBe(201);
  return dataOf(response);
}

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  other = await harness.createTenant();
  admin = await harness.adminToken(tenant, [
    'admin:tenant',
    'admin:reactors',
    'admin:rules',
    'admin:event_types',
    'admin:users',
    'admin:events',
  ]);
  const webhook = await created('/v1/webhooks', { url: 'https://hooks.example.com/tally' });
  const reactor = await created('/v1/reactors', {
    name: 'Ten',
    eventType: 'ORDER_PLACED',
    reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
  });
  const ruleSet = await created('/v1/transactions-rule-engine/rule-sets', {
    isActive: true,
    ruleDefinitions: [rule('BIG')],
  });
  const secondRule = await created(`/v1/transactions-rule-engine/rule-sets/${ruleSet.id}/rules`, rule('SECOND'));
  const product = await created('/v1/products', { name: 'Beans', identifiers: ['SKU-1'] });
  const venue = await created('/v1/venues', { name: 'High Street' });
  const eventType = (await created('/v1/event_types', {
    name: 'VISIT',
    description: 'a visit',
    isPrivate: false,
  })) as unknown as { eventType?: { id: string } } & { id: string };
  const member = await registerMember(harness, tenant, admin, 'member-1');
  Object.assign(routes, {
    webhook: { path: `/v1/webhooks/${webhook.id}`, table: 'webhook', id: webhook.id },
    reactor: { path: `/v1/reactors/${reactor.id}`, table: 'reactor', id: reactor.id },
    'rule set': { path: `/v1/transactions-rule-engine/rule-sets/${ruleSet.id}`, table: 'rule_set', id: ruleSet.id },
    product: { path: `/v1/products/${product.id}`, table: 'product', id: product.id },
    venue: { path: `/v1/venues/${venue.id}`, table: 'venue', id: venue.id },
    'event type': { path: `/v1/event_types/VISIT`, table: 'event_type', id: eventType.eventType?.id ?? eventType.id },
    user: { path: `/v1/users/${member.id}`, table: 'member', id: member.id },
  });
  routes.rule = {
    path: `/v1/transactions-rule-engine/rule-sets/${ruleSet.id}/rules/${secondRule.id}`,
    table: 'rule_set',
    id: ruleSet.id,
  };
});
afterAll(() => harness.close());

/** The stored row, read past the API: what a forged field would have changed. */
function storedRow(route: PatchRoute) {
  return queryOne(harness, `select * from ${route.table} where id = ?`, [route.id]);
}

// Issue 17: "Add a test per PATCH route that sends tenant, id, createdAt, updatedAt and an unknown
// field and checks 400 and nothing changed." docs/api-conventions.md#errors: body validation failures are 400 ValidationError.
describe('PATCH bodies are closed: ids, the tenant and timestamps are never writable', () => {
  const forged = () => [
    { tenant: other.id },
    { tenant: { id: other.id } },
    { tenant: null },
    { id: randomUUID() },
    { createdAt: '2001-01-01T00:00:00.000Z' },
    { updatedAt: '2001-01-01T00:00:00.000Z' },
    { isAdmin: true },
  ];

  for (const name of ['webhook', 'reactor', 'rule set', 'rule', 'product', 'venue', 'event type', 'user']) {
    it(`PATCH of a ${name}: 400 ValidationError naming the field, and the stored row is unchanged`, async () => {
      const route = routes[name]!;
      const before = await storedRow(route);
      for (const body of forged()) {
        const response = await harness.request(tenant, 'PATCH', route.path, { token: admin, body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        const answer = await jsonOf(response);
        expect(answer.data.name).toBe('ValidationError');
        expect(answer.data.errors.map((error: { property: string }) => error.property)).toEqual([Object.keys(body)[0]]);
      }
      expect(await storedRow(route)).toEqual(before);
    });
  }

  it('a forged field beside a valid change refuses the whole body', async () => {
    const route = routes.webhook!;
    const response = await harness.request(tenant, 'PATCH', route.path, {
      token: admin,
      body: { isActive: false, tenant: other.id },
    });
    expect(response.status).toBe(400);
    expect((await storedRow(route)).is_active).toBe(true);
    const otherAdmin = await harness.adminToken(other, ['admin:tenant']);
    expect(await dataOf(await harness.request(other, 'GET', '/v1/webhooks', { token: otherAdmin }))).toEqual([]);
  });
});

// docs/users.md#changes: "isRestricted is changed by admins only; a user token sending it to PATCH /v1/users/me is 400 ValidationError."
// decisions §14: "A member's own token may change `profile` and `flags` only."
describe('a member cannot change admin-owned fields of its own record', () => {
  it('PATCH /v1/users/me with isRestricted is 400 ValidationError and the member stays restricted', async () => {
    const restricted = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: {
        isRestricted: true,
        authIdentifier: 'restricted-1',
        profile: { familyName: 'R', givenName: 'R', emailAddress: 'r@example.com' },
      },
    });
    expect(restricted.status).toBe(201);
    const token = await harness.userToken(tenant, 'restricted-1');
    const response = await harness.request(tenant, 'PATCH', '/v1/users/me', { token, body: { isRestricted: false } });
    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({
      status: 'fail',
      data: { name: 'ValidationError', errors: [{ property: 'isRestricted' }] },
    });
    // The tenant's own reference to the member (a CRM id) is the tenant's to set, not the member's.
    const external = await harness.request(tenant, 'PATCH', '/v1/users/me', {
      token,
      body: { externalIdentifier: 'crm-forged' },
    });
    expect(await jsonOf(external)).toMatchObject({
      data: { name: 'ValidationError', errors: [{ property: 'externalIdentifier' }] },
    });
    expect(
      (await dataOf<{ isRestricted: boolean }>(await harness.request(tenant, 'GET', '/v1/users/me', { token })))
        .isRestricted,
    ).toBe(true);
    // The tenant's venues the member is linked to are the tenant's to set too.
    const venues = await harness.request(tenant, 'PATCH', '/v1/users/me', {
      token,
      body: { profile: { city: 'York' }, linkedVenues: [] },
    });
    expect(venues.status).toBe(400);
    expect(await jsonOf(venues)).toMatchObject({
      data: { name: 'ValidationError', errors: [{ property: 'linkedVenues' }] },
    });
    // The member's own fields still change: its profile, attributes included, and its flags.
    const own = await harness.request(tenant, 'PATCH', '/v1/users/me', {
      token,
      body: { profile: { city: 'Leeds', attributes: { newsletter: 'weekly' } }, flags: { genderProvided: false } },
    });
    expect(own.status).toBe(200);
    expect(await dataOf(own)).toMatchObject({
      isRestricted: true,
      externalIdentifier: null,
      linkedVenues: [],
      profile: { city: 'Leeds', attributes: { newsletter: 'weekly' } },
      flags: { genderProvided: false },
    });
  });
});
