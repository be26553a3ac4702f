import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReactor, deleteReactor } from '../../shared/reactors/reactor-service.js';
import { createHarness, dataOf, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  // The hot path's caches on, as in production (the other test files turn them off).
  harness = await createHarness({ cacheTtlMs: 60_000, memberCacheTtlMs: 60_000 });
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users']);
  await harness.request(tenant, 'POST', '/v1/users', {
    token: admin,
    body: {
      isRestricted: false,
      authIdentifier: 'till-7',
      profile: { familyName: 'D', givenName: 'J', emailAddress: 'j@example.com' },
    },
  });
});
afterAll(() => harness.close());

const report = (type: string, secret: string, payload: Record<string, unknown> = {}) =>
  harness.request(tenant, 'POST', '/v1/events', { token: secret, body: { type, subject: 'till-7', payload } });

// README, CACHE_TTL_MS: a change made through a process is seen by that process at once.
describe('cached lookups of POST /events follow changes made through the same process', () => {
  it('a rotated secret works at once and the old one stops', async () => {
    const { secret } = await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types', {
        token: admin,
        body: { name: 'TILL_OPENED', description: 'x', isPrivate: true },
      }),
    );
    expect((await report('TILL_OPENED', secret, { n: 1 })).status).toBe(201);
    const rotated = await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types/TILL_OPENED/secret', { token: admin }),
    );
    expect((await report('TILL_OPENED', rotated.secret, { n: 2 })).status).toBe(201);
    expect((await report('TILL_OPENED', secret, { n: 3 })).status).toBe(401);
  });

  it('a deactivated type is refused at once', async () => {
    const { secret } = await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types', {
        token: admin,
        body: { name: 'TILL_CLOSED', description: 'x', isPrivate: true },
      }),
    );
    expect((await report('TILL_CLOSED', secret, { n: 1 })).status).toBe(201);
    await harness.request(tenant, 'PATCH', '/v1/event_types/TILL_CLOSED', { token: admin, body: { isActive: false } });
    expect((await report('TILL_CLOSED', secret, { n: 2 })).status).toBe(404);
  });

  it("an erased member's profile no longer shows in event answers", async () => {
    const { secret } = await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types', {
        token: admin,
        body: { name: 'TILL_USED', description: 'x', isPrivate: true },
      }),
    );
    const first = await dataOf<{ subject: { profile: object } }>(await report('TILL_USED', secret, { n: 1 }));
    expect(first.subject.profile).toMatchObject({ emailAddress: 'j@example.com' });
    await harness.request(tenant, 'DELETE', '/v1/users/till-7', { token: admin });
    const second = await dataOf<{ subject: { profile: object } }>(await report('TILL_USED', secret, { n: 2 }));
    expect(second.subject.profile).toEqual({});
  });
});

// docs/events.md#subjects: subject is "one of user.authIdentifier, user.id, user.accountNumber";
// lookup-user.ts: tried in that order within the tenant.
describe('members looked up together (one query per tenant) resolve as one by one', () => {
  it('each subject finds the member its form names, in its own tenant', async () => {
    const users = await harness.adminToken(tenant, ['admin:users']);
    const register = async (of: TestTenant, token: string, authIdentifier: string) =>
      dataOf<{ id: string; accountNumber: number }>(
        await harness.request(of, 'POST', '/v1/users', {
          token,
          body: { isRestricted: false, authIdentifier, profile: {} },
        }),
      );
    const first = await register(tenant, users, 'batch-first');
    // Each of these authIdentifiers is also another member's id or account number.
    const second = await register(tenant, users, first.id);
    const third = await register(tenant, users, String(first.accountNumber));
    const other = await harness.createTenant();
    const elsewhere = await register(other, await harness.adminToken(other, ['admin:users']), 'batch-first');

    const subjects = harness.context.subjects;
    const found = await Promise.all([
      subjects.find(tenant.id, first.id),
      subjects.find(tenant.id, 'batch-first'),
      subjects.find(tenant.id, String(first.accountNumber)),
      subjects.find(tenant.id, first.accountNumber),
      subjects.find(tenant.id, String(second.accountNumber)),
      subjects.find(tenant.id, 'nobody'),
      subjects.find(other.id, 'batch-first'),
    ]);
    expect(found.map((member) => member?.id)).toEqual([
      first.id,
      first.id,
      third.id,
      first.id,
      second.id,
      undefined,
      elsewhere.id,
    ]);
  });
});

// README, CACHE_TTL_MS: the event worker's webhook subscriptions follow changes made through the same process.
describe('cached webhook subscriptions follow changes made through the same process', () => {
  it('a new webhook is dispatched to at once, a deactivated or deleted one no longer', async () => {
    const webhookAdmin = await harness.adminToken(tenant, ['admin:tenant']);
    const subscribed = async () => (await harness.context.webhooks.forTenant(tenant.id)).map((webhook) => webhook.id);
    expect(await subscribed()).toEqual([]);
    const { id } = await dataOf<{ id: string }>(
      await harness.request(tenant, 'POST', '/v1/webhooks', {
        token: webhookAdmin,
        body: { url: 'https://hooks.example.test/tally' },
      }),
    );
    expect(await subscribed()).toEqual([id]);
    await harness.request(tenant, 'PATCH', `/v1/webhooks/${id}`, { token: webhookAdmin, body: { isActive: false } });
    expect(await subscribed()).toEqual([]);
    await harness.request(tenant, 'PATCH', `/v1/webhooks/${id}`, { token: webhookAdmin, body: { isActive: true } });
    expect(await subscribed()).toEqual([id]);
    await harness.request(tenant, 'DELETE', `/v1/webhooks/${id}`, { token: webhookAdmin });
    expect(await subscribed()).toEqual([]);
  });
});

// Issue 18, point 3: "A change made from the CLI or a worker then invalidates … like one made over HTTP."
describe('a change made by a service, not over HTTP, is seen at once by the same process', () => {
  it('a reactor created and deleted through reactor-service is found, then gone, with the cache on', async () => {
    const em = harness.context.orm.em.fork();
    const reactors = harness.context.reactors;
    const by = { tenantId: tenant.id, actor: { subject: 'a-service', scopes: [] } };
    expect(await reactors.forEventType(tenant.id, 'ORDER_PLACED')).toEqual([]);
    const reactor = await createReactor(harness.context, em, by, {
      name: 'Ten',
      eventType: 'ORDER_PLACED',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
    });
    expect((await reactors.forEventType(tenant.id, 'ORDER_PLACED')).map((active) => active.id)).toEqual([reactor.id]);
    await deleteReactor(harness.context, em, by, reactor.id);
    expect(await reactors.forEventType(tenant.id, 'ORDER_PLACED')).toEqual([]);
  });
});
