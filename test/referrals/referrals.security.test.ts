import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, registerMember, type Harness, type Json, type TestTenant } from '../support/harness.js';
import { campaignBody, createCampaign, referredRegistration } from './support.js';

let harness: Harness;
let tenant: TestTenant;
let other: TestTenant;
let admin: string;
let otherAdmin: string;
let campaign: Json;
let otherCode: string;

beforeAll(async () => {
  harness = await createHarness();
  [tenant, other] = [await harness.createTenant(), await harness.createTenant()];
  admin = await harness.adminToken(tenant, ['admin:users']);
  otherAdmin = await harness.adminToken(other, ['admin:users']);
  await registerMember(harness, tenant, admin, 'member');
  await registerMember(harness, other, otherAdmin, 'member');
  campaign = await createCampaign(harness, tenant, admin);
  await createCampaign(harness, other, otherAdmin);
  const code = await harness.request(other, 'GET', '/v1/users/member/referral_code', { token: otherAdmin });
  otherCode = (await dataOf<Json>(code)).inviteCode;
});
afterAll(async () => {
  await harness.close();
});

// decisions §13: referral campaigns are "admin:users"; "GET /v1/users/{id}/referral_code (read:users)"; decisions §2: "A missing,
// invalid or insufficient bearer token is 401 UnauthorizedError".
describe('scopes', () => {
  it('keeps the campaign routes to admin:users', async () => {
    const reader = await harness.adminToken(tenant, ['read:users']);
    const user = await harness.userToken(tenant, 'member');
    const routes: [string, string, unknown?][] = [
      ['POST', '/v1/referral_campaigns', campaignBody({ isActive: false })],
      ['GET', '/v1/referral_campaigns'],
      ['GET', `/v1/referral_campaigns/${campaign.id}`],
      ['PATCH', `/v1/referral_campaigns/${campaign.id}`, { name: 'x' }],
      ['GET', `/v1/referral_campaigns/${campaign.id}/stats`],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [reader, user, undefined]) {
        const response = await harness.request(tenant, method, path, { ...(token ? { token } : {}), body });
        expect(response.status, `${method} ${path}`).toBe(401);
      }
    }
  });

  it("reads a member's code with read:users or the member's own token, and nothing less", async () => {
    const reader = await harness.adminToken(tenant, ['read:users']);
    expect((await harness.request(tenant, 'GET', '/v1/users/member/referral_code', { token: reader })).status).toBe(
      200,
    );
    const own = await harness.userToken(tenant, 'member');
    expect((await harness.request(tenant, 'GET', '/v1/users/me/referral_code', { token: own })).status).toBe(200);
    const wrong = await harness.adminToken(tenant, ['admin:events']);
    expect((await harness.request(tenant, 'GET', '/v1/users/member/referral_code', { token: wrong })).status).toBe(401);
    expect((await harness.request(tenant, 'GET', '/v1/users/me/referral_code', { token: reader })).status).toBe(401);
  });

  // decisions §13: "POST /v1/referral_activities (API key alone)"; decisions §2: "Missing or unknown: 403 InvalidApiKeyError".
  it('records a click with the API key alone, and refuses one without it', async () => {
    const code = await dataOf<Json>(
      await harness.request(tenant, 'GET', '/v1/users/member/referral_code', { token: admin }),
    );
    const body = { inviteCode: code.inviteCode, activityType: 'CLICK', source: 'EMAIL', sourceUserId: 's' };
    expect((await harness.request(tenant, 'POST', '/v1/referral_activities', { body })).status).toBe(201);
    expect((await harness.request(tenant, 'POST', '/v1/referral_activities', { body, apiKey: null })).status).toBe(403);
  });
});

// STYLE.md: "The tenant is in every query ... another tenant's id answers 404, never 403".
describe('tenant isolation', () => {
  it("does not show or change another tenant's campaign", async () => {
    for (const [method, path] of [
      ['GET', `/v1/referral_campaigns/${campaign.id}`],
      ['PATCH', `/v1/referral_campaigns/${campaign.id}`],
      ['GET', `/v1/referral_campaigns/${campaign.id}/stats`],
    ] as const) {
      const response = await harness.request(other, method, path, {
        token: otherAdmin,
        ...(method === 'PATCH' ? { body: { name: 'taken' } } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    const listed = await harness.request(other, 'GET', '/v1/referral_campaigns', { token: otherAdmin });
    expect((await dataOf<Json[]>(listed)).map((c) => c.id)).not.toContain(campaign.id);
  });

  it('takes no invite code of another tenant, at registration or as a click', async () => {
    const registered = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: referredRegistration('cross', otherCode),
    });
    expect(registered.status).toBe(400);
    const click = await harness.request(tenant, 'POST', '/v1/referral_activities', {
      body: { inviteCode: otherCode, activityType: 'CLICK', source: 'EMAIL', sourceUserId: 's' },
    });
    expect(click.status).toBe(400);
  });
});
