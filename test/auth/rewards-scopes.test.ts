import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, jsonOf, registerMember, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let userToken: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  await registerMember(harness, tenant, await harness.adminToken(tenant, ['admin:users']), 'member-1');
  const types = await harness.adminToken(tenant, ['admin:event_types']);
  await harness.request(tenant, 'POST', '/v1/event_types', {
    token: types,
    body: { name: 'TILL_OPENED', description: 'x', isPrivate: true },
  });
  userToken = await harness.userToken(tenant, 'member-1');
});
afterAll(() => harness.close());

const call = (method: string, path: string, token: string, body?: unknown) =>
  harness.request(tenant, method, path, { token, ...(body ? { body } : {}) });

/** docs/api-conventions.md#authentication: "A missing, invalid or insufficient bearer token is 401 UnauthorizedError (… including for a missing scope)." */
async function expectRefused(response: Response) {
  expect(response.status).toBe(401);
  expect(await jsonOf(response)).toMatchObject({ status: 'fail', data: { name: 'UnauthorizedError', httpCode: 401 } });
}

describe('the scopes of the event, webhook and wallet routes', () => {
  // docs/api-conventions.md#scopes: GET /events, GET /events/{id} and POST /events/test_reaction take an "Admin token with scope admin:events".
  it('event reads and test_reaction need admin:events', async () => {
    const test = { type: 'TILL_OPENED', subject: 'member-1' };
    for (const token of [await harness.adminToken(tenant, ['admin:users', 'admin:reactors']), userToken]) {
      await expectRefused(await call('GET', '/v1/events', token));
      await expectRefused(await call('GET', '/v1/events/1', token));
      await expectRefused(await call('POST', '/v1/events/test_reaction', token, test));
    }
    const events = await harness.adminToken(tenant, ['admin:events']);
    expect((await call('GET', '/v1/events', events)).status).toBe(200);
    expect((await call('GET', '/v1/events/1', events)).status).toBe(404);
    expect((await call('POST', '/v1/events/test_reaction', events, test)).status).toBe(200);
  });

  // docs/events.md#webhooks: "Webhooks (/v1/webhooks, admin:tenant)".
  it('webhooks need admin:tenant', async () => {
    for (const token of [await harness.adminToken(tenant, ['admin:events', 'admin:reactors']), userToken]) {
      await expectRefused(await call('GET', '/v1/webhooks', token));
      await expectRefused(await call('POST', '/v1/webhooks', token, { url: 'https://receiver.example/hook' }));
    }
    const tenantAdmin = await harness.adminToken(tenant, ['admin:tenant']);
    expect((await call('GET', '/v1/webhooks', tenantAdmin)).status).toBe(200);
    expect((await call('POST', '/v1/webhooks', tenantAdmin, { url: 'https://receiver.example/hook' })).status).toBe(
      201,
    );
  });

  // docs/api-conventions.md#scopes: GET /users/{id}/wallet takes an "admin token with at least scope read:users"; GET /users/me/wallet a user token.
  it("a member's wallet needs read:users (admin:users implies it); a user reads only their own", async () => {
    await expectRefused(await call('GET', '/v1/users/member-1/wallet', userToken));
    await expectRefused(
      await call('GET', '/v1/users/member-1/wallet', await harness.adminToken(tenant, ['admin:events'])),
    );
    for (const scope of ['read:users', 'admin:users'] as const) {
      expect((await call('GET', '/v1/users/member-1/wallet', await harness.adminToken(tenant, [scope]))).status).toBe(
        200,
      );
    }
    expect((await call('GET', '/v1/users/me/wallet', userToken)).status).toBe(200);
    await expectRefused(await call('GET', '/v1/users/me/wallet', await harness.adminToken(tenant, ['read:users'])));
  });
});
