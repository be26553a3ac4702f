import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, registerMember, type Harness, type Json, type TestTenant } from '../support/harness.js';
import { createCampaign, referredRegistration } from './support.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users']);
  await registerMember(harness, tenant, admin, 'referrer');
});
afterAll(async () => {
  await harness.close();
});

async function inviteCodeOf(authIdentifier: string): Promise<string> {
  const response = await harness.request(tenant, 'GET', `/v1/users/${authIdentifier}/referral_code`, { token: admin });
  return (await dataOf<Json>(response)).inviteCode;
}

const register = (authIdentifier: string, typed: string) =>
  harness.request(tenant, 'POST', '/v1/users', { token: admin, body: referredRegistration(authIdentifier, typed) });

// docs/referrals.md#invite-codes: "A code a person types, at registration or on a click, is matched in the form its
// campaign's codes are issued in: spaces around it are dropped, and it is read upper case for the kinds made of the
// alphabet and lower case for word codes".
describe('a typed invite code', () => {
  it('matches a code of the alphabet typed in lower case with spaces around it, at registration and on a click', async () => {
    const campaign = await createCampaign(harness, tenant, admin, { referralCodeType: 'CODE' });
    const issued = await inviteCodeOf('referrer');
    const typed = ` ${issued.toLowerCase()} `;
    const registered = await register('lower-case-friend', typed);
    expect(registered.status).toBe(201);
    expect((await dataOf<Json>(registered)).referralCodeUsedForRegistration.inviteCode).toBe(issued);
    const click = await harness.request(tenant, 'POST', '/v1/referral_activities', {
      body: { inviteCode: typed, activityType: 'CLICK', source: 'EMAIL', sourceUserId: 'clicker' },
    });
    expect(click.status).toBe(201);
    expect((await dataOf<Json>(click)).inviteCode).toBe(issued);
    await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
      token: admin,
      body: { isActive: false },
    });
  });

  it('matches a word code typed in upper case', async () => {
    await createCampaign(harness, tenant, admin, { name: 'Words', referralCodeType: 'STATIC_USER_WORD_CODE' });
    const issued = await inviteCodeOf('referrer');
    const registered = await register('upper-case-friend', issued.toUpperCase());
    expect(registered.status).toBe(201);
    expect((await dataOf<Json>(registered)).referralCodeUsedForRegistration.inviteCode).toBe(issued);
  });
});
