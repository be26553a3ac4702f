import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let intruder: TestTenant;
let userId: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  intruder = await harness.createTenant();
  const created = await harness.request(tenant, 'POST', '/v1/users', {
    token: await harness.adminToken(tenant, ['admin:users']),
    body: {
      isRestricted: false,
      authIdentifier: 'member-1',
      profile: { familyName: 'D', givenName: 'J', emailAddress: 'j@example.com' },
    },
  });
  userId = (await dataOf<{ id: string }>(created)).id;
});
afterAll(() => harness.close());

describe('tenant isolation and scopes for members', () => {
  it('another tenant finds none of our members by id, authIdentifier or account number', async () => {
    const token = await harness.adminToken(intruder, ['admin:users']);
    for (const identifier of [userId, 'member-1', '1']) {
      expect((await harness.request(intruder, 'GET', `/v1/users/${identifier}`, { token })).status).toBe(404);
      expect(
        (await harness.request(intruder, 'PATCH', `/v1/users/${identifier}`, { token, body: { isRestricted: true } }))
          .status,
      ).toBe(404);
      expect((await harness.request(intruder, 'DELETE', `/v1/users/${identifier}`, { token })).status).toBe(404);
    }
    expect(await dataOf(await harness.request(intruder, 'GET', '/v1/users', { token }))).toEqual([]);
  });

  it('a user token cannot reach /users/{id} or the list; read:users cannot change', async () => {
    const userToken = await harness.userToken(tenant, 'member-1');
    expect((await harness.request(tenant, 'GET', `/v1/users/${userId}`, { token: userToken })).status).toBe(401);
    expect((await harness.request(tenant, 'GET', '/v1/users', { token: userToken })).status).toBe(401);
    const reader = await harness.adminToken(tenant, ['read:users']);
    expect(
      (await harness.request(tenant, 'PATCH', `/v1/users/${userId}`, { token: reader, body: { isRestricted: true } }))
        .status,
    ).toBe(401);
    expect((await harness.request(tenant, 'DELETE', `/v1/users/${userId}`, { token: reader })).status).toBe(401);
  });

  it('/users/me takes a user token, not an admin token', async () => {
    expect(
      (
        await harness.request(tenant, 'GET', '/v1/users/me', {
          token: await harness.adminToken(tenant, ['admin:users']),
        })
      ).status,
    ).toBe(401);
  });
});

// Issue 17, low: "POST /v1/users stores linkedVenues ids unchecked (another tenant's venue, or none): refuse ids that are not the tenant's venues."
describe("linkedVenues name the tenant's own venues", () => {
  it("another tenant's venue, an unknown id or a non-uuid is 400 naming linkedVenues; our venue is linked", async () => {
    const admin = await harness.adminToken(tenant, ['admin:users', 'admin:rules']);
    const ours = await dataOf<{ id: string }>(
      await harness.request(tenant, 'POST', '/v1/venues', { token: admin, body: { name: 'Ours' } }),
    );
    const theirs = await dataOf<{ id: string }>(
      await harness.request(intruder, 'POST', '/v1/venues', {
        token: await harness.adminToken(intruder, ['admin:rules']),
        body: { name: 'Theirs' },
      }),
    );
    const register = (authIdentifier: string, linkedVenues: { id: string }[]) =>
      harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        body: {
          isRestricted: false,
          authIdentifier,
          linkedVenues,
          profile: { familyName: 'V', givenName: authIdentifier, emailAddress: `${authIdentifier}@example.com` },
        },
      });
    for (const [name, id] of [
      ['theirs', theirs.id],
      ['unknown', '6f1c8f1e-0000-4000-8000-000000000000'],
      ['not-a-uuid', 'venue-1'],
    ] as const) {
      const response = await register(`linked-${name}`, [{ id: ours.id }, { id }]);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        data: { name: 'ValidationError', errors: [{ property: 'linkedVenues', value: [id] }] },
      });
    }
    const linked = await register('linked-ours', [{ id: ours.id }]);
    expect(linked.status).toBe(201);
    expect((await dataOf<{ linkedVenues: { id: string }[] }>(linked)).linkedVenues).toEqual([{ id: ours.id }]);
  });

  // docs/users.md#changes: PATCH /v1/users/{id} "takes … linkedVenues …, replaced whole"; "a member cannot change … linkedVenues".
  it('an admin relinks a member with PATCH, checked the same way; the links are replaced whole', async () => {
    const admin = await harness.adminToken(tenant, ['admin:users', 'admin:rules']);
    const venue = async (name: string) =>
      (
        await dataOf<{ id: string }>(
          await harness.request(tenant, 'POST', '/v1/venues', { token: admin, body: { name } }),
        )
      ).id;
    const [north, south] = [await venue('North'), await venue('South')];
    const relink = (linkedVenues: { id: string }[]) =>
      harness.request(tenant, 'PATCH', `/v1/users/${userId}`, { token: admin, body: { linkedVenues } });
    const linked = await relink([{ id: north }, { id: south }]);
    expect(linked.status).toBe(200);
    expect((await dataOf<{ linkedVenues: { id: string }[] }>(linked)).linkedVenues).toEqual([
      { id: north },
      { id: south },
    ]);
    const unknown = '6f1c8f1e-0000-4000-8000-000000000000';
    const refused = await relink([{ id: south }, { id: unknown }]);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      data: { name: 'ValidationError', errors: [{ property: 'linkedVenues', value: [unknown] }] },
    });
    const replaced = await relink([{ id: south }]);
    expect((await dataOf<{ linkedVenues: { id: string }[] }>(replaced)).linkedVenues).toEqual([{ id: south }]);
  });
});
