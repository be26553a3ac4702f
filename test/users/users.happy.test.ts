import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEvents, registrationDependencies } from '../../shared/reactors/register-events.js';
import { createHarness, dataOf, jsonOf, queryOne, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

const profile = (n: number) => ({ familyName: 'Doe', givenName: `Jo ${n}`, emailAddress: `jo${n}@example.com` });

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users']);
});
afterAll(() => harness.close());

// docs/users.md#registration: "a user token registers its own sub …; an admin token may register anyone, and an absent authIdentifier is generated."
describe('POST /v1/users', () => {
  it('a user token registers its own sub', async () => {
    const token = await harness.userToken(tenant, 'auth0|alice');
    const response = await harness.request(tenant, 'POST', '/v1/users?locale=en-GB', {
      token,
      body: { isRestricted: false, profile: { ...profile(1), gender: 'FEMALE', city: 'Leeds' } },
    });
    expect(response.status).toBe(201);
    expect(await dataOf(response)).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      accountNumber: 1,
      authIdentifier: 'auth0|alice',
      externalIdentifier: null,
      isRestricted: false,
      profile: {
        familyName: 'Doe',
        givenName: 'Jo 1',
        emailAddress: 'jo1@example.com',
        gender: 'FEMALE',
        city: 'Leeds',
      },
      flags: { genderProvided: true },
      linkedVenues: [],
    });
  });

  it('an admin registers anyone, and an absent authIdentifier is generated', async () => {
    const named = await dataOf<{ authIdentifier: string; accountNumber: number }>(
      await harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        body: { isRestricted: true, profile: profile(2), authIdentifier: 'pos-42', externalIdentifier: 'crm-1' },
      }),
    );
    expect(named).toMatchObject({ authIdentifier: 'pos-42', accountNumber: 2 });
    const generated = await dataOf<{ authIdentifier: string }>(
      await harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        body: { isRestricted: false, profile: profile(3) },
      }),
    );
    expect(generated.authIdentifier).toMatch(/^[0-9a-f-]{36}$/);
  });

  // docs/api-conventions.md#ids: "accountNumber is a per-tenant increasing integer"
  it('account numbers increase per tenant and stay unique under concurrent registrations', async () => {
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:users']);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        harness.request(other, 'POST', '/v1/users', {
          token: otherAdmin,
          body: { isRestricted: false, profile: profile(100 + i) },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(201));
    const numbers = (await Promise.all(responses.map((response) => dataOf<{ accountNumber: number }>(response)))).map(
      (user) => user.accountNumber,
    );
    expect([...numbers].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('allowDuplicateContacts lets two members share an email', async () => {
    const open = await harness.createTenant({ configuration: { allowDuplicateContacts: true } });
    const token = await harness.adminToken(open, ['admin:users']);
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await harness.request(open, 'POST', '/v1/users', {
            token,
            body: { isRestricted: false, profile: profile(7) },
          })
        ).status,
      ).toBe(201);
    }
  });
});

// docs/users.md#identifiers: "GET /users/{id}: id is the user's id, authIdentifier or accountNumber."
describe('reading members', () => {
  it('by id, authIdentifier or account number; and /users/me with the user token', async () => {
    const byAuth = await dataOf<{ id: string; accountNumber: number }>(
      await harness.request(tenant, 'GET', '/v1/users/auth0%7Calice', { token: admin }),
    );
    const byId = await dataOf<{ authIdentifier: string }>(
      await harness.request(tenant, 'GET', `/v1/users/${byAuth.id}`, { token: admin }),
    );
    const byNumber = await dataOf<{ authIdentifier: string }>(
      await harness.request(tenant, 'GET', `/v1/users/${byAuth.accountNumber}`, { token: admin }),
    );
    expect([byId.authIdentifier, byNumber.authIdentifier]).toEqual(['auth0|alice', 'auth0|alice']);
    const me = await dataOf<{ id: string }>(
      await harness.request(tenant, 'GET', '/v1/users/me', { token: await harness.userToken(tenant, 'auth0|alice') }),
    );
    expect(me.id).toBe(byAuth.id);
  });

  it('lists with filters on isRestricted, profile.emailAddress and createdAt', async () => {
    const restricted = await harness.request(
      tenant,
      'GET',
      `/v1/users?filter=${encodeURIComponent('isRestricted:(eq:!t)')}`,
      { token: admin },
    );
    expect((await dataOf<{ authIdentifier: string }[]>(restricted)).map((user) => user.authIdentifier)).toEqual([
      'pos-42',
    ]);
    const byEmail = await harness.request(
      tenant,
      'GET',
      `/v1/users?filter=${encodeURIComponent("profile.emailAddress:(like:'JO3@%')")}`,
      { token: admin },
    );
    expect(byEmail.headers.get('content-range')).toBe('user 0-0/1');
    const sorted = await harness.request(tenant, 'GET', '/v1/users?sort=accountNumber&order=ASC', { token: admin });
    const members = await dataOf<{ accountNumber: number; createdAt: string }[]>(sorted);
    expect(members.map((user) => user.accountNumber)).toEqual([1, 2, 3]);
    const second = members[1];
    const since = await harness.request(
      tenant,
      'GET',
      `/v1/users?sort=accountNumber&order=ASC&filter=${encodeURIComponent(`createdAt:(gt:'${second!.createdAt}')`)}`,
      { token: admin },
    );
    expect((await dataOf<{ accountNumber: number }[]>(since)).map((user) => user.accountNumber)).toEqual([3]);
  });

  // docs/api-conventions.md#filters: "has: … an object field has the key"; issue 17: profile.attributes:(has:'k') answered 500.
  it('filters on a key of profile.attributes, with names and keys that are data, not SQL', async () => {
    await harness.request(tenant, 'PATCH', '/v1/users/pos-42', {
      token: admin,
      body: { profile: { attributes: { "o'brien": 1, vip: true } } },
    });
    const withKey = async (key: string) => {
      const response = await harness.request(
        tenant,
        'GET',
        `/v1/users?filter=${encodeURIComponent(`profile.attributes:(has:'${key.replace(/'/g, "!'")}')`)}`,
        { token: admin },
      );
      expect(response.status).toBe(200);
      return (await dataOf<{ authIdentifier: string }[]>(response)).map((user) => user.authIdentifier);
    };
    expect(await withKey('vip')).toEqual(['pos-42']);
    expect(await withKey("o'brien")).toEqual(['pos-42']);
    expect(await withKey('absent')).toEqual([]);
  });
});

describe('changing members', () => {
  // docs/users.md#changes: "PATCH merges profile field by field, but attributes and flags are replaced whole."
  it('PATCH merges the profile, replaces attributes and flags whole', async () => {
    await harness.request(tenant, 'PATCH', '/v1/users/pos-42', {
      token: admin,
      body: { profile: { attributes: { tier: 'gold', pets: 2 } } },
    });
    const response = await harness.request(tenant, 'PATCH', '/v1/users/pos-42', {
      token: admin,
      body: {
        profile: { city: 'York', attributes: { pets: 3 } },
        flags: { genderProvided: false },
        isRestricted: false,
        externalIdentifier: null,
      },
    });
    expect(response.status).toBe(200);
    expect(await dataOf(response)).toMatchObject({
      isRestricted: false,
      externalIdentifier: null,
      profile: {
        familyName: 'Doe',
        givenName: 'Jo 2',
        emailAddress: 'jo2@example.com',
        city: 'York',
        attributes: { pets: 3 },
      },
      flags: { genderProvided: false },
    });
  });

  it("PATCH /users/me changes the token's own member", async () => {
    const token = await harness.userToken(tenant, 'auth0|alice');
    const response = await harness.request(tenant, 'PATCH', '/v1/users/me', {
      token,
      body: { profile: { postcode: 'LS1 1AA' } },
    });
    expect((await dataOf<{ profile: { postcode: string } }>(response)).profile.postcode).toBe('LS1 1AA');
  });

  // docs/users.md#erasure: "DELETE /users/{id} erases the profile … but keeps ids, account number, events and ledger."
  // docs/users.md#erasure: "Deletes profile data only; the top-level identifier data is retained to avoid conflicts."
  it('DELETE erases the profile and keeps the identifiers, the events and the ledger', async () => {
    await harness.request(tenant, 'PATCH', '/v1/users/pos-42', {
      token: admin,
      body: { externalIdentifier: 'crm-42' },
    });
    const reactorAdmin = await harness.adminToken(tenant, ['admin:reactors']);
    const reactor = {
      name: 'Order points',
      eventType: 'ORDER_PLACED',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
    };
    expect((await harness.request(tenant, 'POST', '/v1/reactors', { token: reactorAdmin, body: reactor })).status).toBe(
      201,
    );
    const member = await dataOf<{ id: string }>(
      await harness.request(tenant, 'GET', '/v1/users/pos-42', { token: admin }),
    );
    const type = await queryOne(harness, "select id from event_type where tenant_id = ? and name = 'ORDER_PLACED'", [
      tenant.id,
    ]);
    const id = await harness.context.eventIds.allocate();
    const reportedAt = new Date().toISOString();
    const job = {
      id,
      tenantId: tenant.id,
      eventTypeId: type.id,
      eventTypeName: 'ORDER_PLACED',
      userId: member.id,
      payload: {},
      reportedAt,
      occurredAt: null,
    };
    await registerEvents(registrationDependencies(harness.context), [job]);
    const kept =
      'select (select count(*)::int from event where user_id = ?) as events, (select coalesce(sum(points), 0)::int from ledger_entry where user_id = ?) as points';

    const response = await harness.request(tenant, 'DELETE', '/v1/users/pos-42', { token: admin });
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toEqual({ status: 'success', data: { affected: 1 } });
    const after = await dataOf(await harness.request(tenant, 'GET', '/v1/users/pos-42', { token: admin }));
    expect(after).toMatchObject({
      authIdentifier: 'pos-42',
      accountNumber: 2,
      externalIdentifier: 'crm-42',
      profile: {},
    });
    expect(after).not.toHaveProperty('flags');
    expect(await queryOne(harness, kept, [member.id, member.id])).toEqual({ events: 1, points: 10 });
  });
});
