import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, jsonOf, queryOne, type TestTenant } from '../support/harness.js';
import { customRule, totalOver } from '../support/rule-definitions.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let ruleSetId: string;

const rule = (name: string) => customRule(name, 1, totalOver(1));

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, [
    'admin:tenant',
    'admin:reactors',
    'admin:rules',
    'admin:event_types',
    'admin:users',
    'admin:receipts',
    'admin:orders',
  ]);
  const set = await harness.request(tenant, 'POST', '/v1/transactions-rule-engine/rule-sets', {
    token: admin,
    body: { isActive: false },
  });
  ruleSetId = (await jsonOf(set)).data.id;
});
afterAll(() => harness.close());

interface CreatingRoute {
  path: () => string;
  body: (n: number) => object;
  /** Counts what the route created, by the id it answered. */
  table: string;
}

/** Every creating POST whose work is a PostgreSQL record (POST /v1/events is exactly-once.test.ts's). */
const routes: Record<string, CreatingRoute> = {
  'POST /v1/users': {
    path: () => '/v1/users',
    body: (n) => ({
      isRestricted: false,
      profile: { familyName: 'D', givenName: `G${n}`, emailAddress: `m${n}@example.com` },
    }),
    table: 'member',
  },
  'POST /v1/event_types': {
    path: () => '/v1/event_types',
    body: (n) => ({ name: `TYPE_${'ABCDEFGHIJ'[n]}`, description: 'x', isPrivate: false }),
    table: 'event_type',
  },
  'POST /v1/reactors': {
    path: () => '/v1/reactors',
    body: (n) => ({
      name: `R${n}`,
      eventType: 'ORDER_PLACED',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '1' }] } }],
    }),
    table: 'reactor',
  },
  'POST /v1/webhooks': {
    path: () => '/v1/webhooks',
    body: (n) => ({ url: `https://hooks.example.com/${n}` }),
    table: 'webhook',
  },
  'POST /v1/products': {
    path: () => '/v1/products',
    body: (n) => ({ name: `P${n}`, identifiers: [`SKU-${n}`] }),
    table: 'product',
  },
  'POST /v1/venues': { path: () => '/v1/venues', body: (n) => ({ name: `V${n}` }), table: 'venue' },
  'POST /v1/transactions-rule-engine/rule-sets': {
    path: () => '/v1/transactions-rule-engine/rule-sets',
    body: (n) => ({ name: `S${n}`, isActive: false }),
    table: 'rule_set',
  },
  'POST /v1/orders': {
    path: () => '/v1/orders',
    body: (n) => ({ transactionId: `T-${n}`, total: 10, locationId: 'STORE-1', lineItems: [] }),
    table: 'pos_order',
  },
  'POST /v1/receipts': {
    path: () => '/v1/receipts',
    body: (n) => ({
      useParser: true,
      pictureUrl: `https://images.example.com/${n}.png`,
      submitter: { authIdentifier: 'claimant' },
    }),
    table: 'receipt',
  },
};

/** As if the process had died after the route's work and before its answer was stored: no answer, lease lapsed. */
async function abandonClaim(): Promise<void> {
  await harness.context.orm.em
    .fork()
    .getConnection()
    .execute(
      "update idempotency_record set response_status = null, response_body = null, claimed_until = now() - interval '1 second' where id = (select id from idempotency_record where tenant_id = ? order by created_at desc limit 1)",
      [tenant.id],
    );
}

async function reservedId(): Promise<string> {
  return (
    await queryOne(
      harness,
      'select reserved_id from idempotency_record where tenant_id = ? order by created_at desc limit 1',
      [tenant.id],
    )
  ).reserved_id;
}

// Issue 17: "Apply the same rule to every creating POST": a retry with the same key never does the work twice.
describe("a retry that takes over a dead request's claim, on every creating POST", () => {
  beforeAll(async () => {
    const member = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: {
        isRestricted: false,
        authIdentifier: 'claimant',
        profile: { familyName: 'C', givenName: 'C', emailAddress: 'c@example.com' },
      },
    });
    expect(member.status).toBe(201);
  });

  let n = 0;
  for (const [name, route] of Object.entries(routes)) {
    it(`${name}: answers what the first request created, under the id it reserved, and creates nothing more`, async () => {
      n += 1;
      const body = route.body(n);
      const send = () =>
        harness.request(tenant, 'POST', route.path(), {
          token: admin,
          body,
          headers: { 'Idempotency-Key': `route-${n}` },
        });
      const first = await send();
      expect(first.status, await first.clone().text()).toBe(201);
      const { data } = await jsonOf(first);
      expect(data.id).toBe(await reservedId());
      const before = await queryOne(harness, `select count(*)::int as n from ${route.table} where tenant_id = ?`, [
        tenant.id,
      ]);

      await abandonClaim();
      const retry = await send();
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect((await jsonOf(retry)).data.id).toBe(data.id);
      expect(
        await queryOne(harness, `select count(*)::int as n from ${route.table} where tenant_id = ?`, [tenant.id]),
      ).toEqual(before);
      // The recovered answer is now the key's answer.
      expect((await send()).headers.get('idempotent-replayed')).toBe('true');
    });
  }

  it('POST …/rule-sets/{id}/rules: the rule added once, answered by its reserved id', async () => {
    const send = () =>
      harness.request(tenant, 'POST', `/v1/transactions-rule-engine/rule-sets/${ruleSetId}/rules`, {
        token: admin,
        body: rule('ONCE'),
        headers: { 'Idempotency-Key': 'rule-once' },
      });
    const first = await jsonOf(await send());
    expect(first.data.id).toBe(await reservedId());
    await abandonClaim();
    const retry = await send();
    expect(retry.status).toBe(201);
    expect((await jsonOf(retry)).data).toEqual(first.data);
    const set = await jsonOf(
      await harness.request(tenant, 'GET', `/v1/transactions-rule-engine/rule-sets/${ruleSetId}`, { token: admin }),
    );
    expect(set.data.rules.map((stored: { name: string }) => stored.name)).toEqual(['ONCE']);
  });

  it('a first request that died before its work: the retry creates it under the reserved id', async () => {
    const send = () =>
      harness.request(tenant, 'POST', '/v1/venues', {
        token: admin,
        body: { name: 'Late' },
        headers: { 'Idempotency-Key': 'died-early' },
      });
    const first = await jsonOf(await send());
    // Undo the work, as if the process had died before committing it.
    await harness.context.orm.em.fork().getConnection().execute('delete from venue where id = ?', [first.data.id]);
    await abandonClaim();
    const retry = await send();
    expect(retry.status).toBe(201);
    expect((await jsonOf(retry)).data).toMatchObject({ id: first.data.id, name: 'Late' });
  });
});
