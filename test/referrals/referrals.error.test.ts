import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHarness,
  dataOf,
  jsonOf,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import { campaignBody, createCampaign, referredRegistration } from './support.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let campaign: Json;
let inviteCode: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users']);
  await registerMember(harness, tenant, admin, 'owner');
  await harness.request(tenant, 'PATCH', '/v1/users/owner', {
    token: admin,
    body: { profile: { telephoneNumber: '+441234567890' } },
  });
  campaign = await createCampaign(harness, tenant, admin);
  inviteCode = (await codeOf('owner')).inviteCode;
});
afterAll(async () => {
  await harness.close();
});

async function codeOf(authIdentifier: string): Promise<Json> {
  const response = await harness.request(tenant, 'GET', `/v1/users/${authIdentifier}/referral_code`, { token: admin });
  return dataOf(response);
}

const postCampaign = (body: unknown) =>
  harness.request(tenant, 'POST', '/v1/referral_campaigns', { token: admin, body });
const register = (body: unknown) => harness.request(tenant, 'POST', '/v1/users', { token: admin, body });

/** The properties an error names, from data.errors. */
function namedFields(answer: Json): string[] {
  return (answer.data.errors ?? []).map((error: { property: string }) => error.property);
}

// decisions §3: "Body validation failures, on every route: 400 ValidationError ... that names the field"; decisions §13: tranches [{referrals, name}].
describe('campaign bodies', () => {
  it.each([
    ['name', { name: '' }],
    ['linkConfig.desktopUrl', { linkConfig: { title: 't', description: 'd', desktopUrl: 'ftp://coffee.example' } }],
    ['linkConfig.title', { linkConfig: { description: 'd', desktopUrl: 'https://coffee.example' } }],
    [
      'linkConfig.iosUrl',
      { linkConfig: { title: 't', description: 'd', desktopUrl: 'https://c.example', iosUrl: 'not a url' } },
    ],
    ['referralCodeType', { referralCodeType: 'QR' }],
    ['isActive', { isActive: 'yes' }],
    ['tranches.0.referrals', { tranches: [{ referrals: 0, name: 'none' }] }],
    ['tranches.0.referrals', { tranches: [{ referrals: 1.5, name: 'half' }] }],
    ['tranches.0.name', { tranches: [{ referrals: 1 }] }],
  ])('refuses a bad %s with 400 naming it', async (field, overrides) => {
    const response = await postCampaign(campaignBody({ isActive: false, ...overrides }));
    expect(response.status).toBe(400);
    expect(
      namedFields(await jsonOf(response))
        .join(' ')
        .replace(/[/[\]]/g, '.'),
    ).toContain(field);
  });

  it('refuses two tranches of one count, or of one name, naming the tranche', async () => {
    const sameCount = await postCampaign(
      campaignBody({
        isActive: false,
        tranches: [
          { referrals: 2, name: 'a' },
          { referrals: 2, name: 'b' },
        ],
      }),
    );
    expect(sameCount.status).toBe(400);
    expect(namedFields(await jsonOf(sameCount))).toEqual(['tranches[1].referrals']);
    const sameName = await postCampaign(
      campaignBody({
        isActive: false,
        tranches: [
          { referrals: 1, name: 'a' },
          { referrals: 2, name: 'a' },
        ],
      }),
    );
    expect(namedFields(await jsonOf(sameName))).toEqual(['tranches[1].name']);
  });

  // docs/referrals.md: "Addresses are `http` or `https`"; "A value outside its bounds is `400 ValidationError` naming the field".
  it.each([
    ['desktopUrl', 'http://'],
    ['desktopUrl', 'http://a:99999/'],
    ['imageUrl', 'https://:8080/x.png'],
    ['iosUrl', 'http://999.1.1.1/'],
  ])('refuses a linkConfig.%s of %s that no browser opens, on POST and PATCH', async (field, address) => {
    const linkConfig = { title: 't', description: 'd', desktopUrl: 'https://c.example', [field]: address };
    const created = await postCampaign(campaignBody({ isActive: false, linkConfig }));
    const patched = await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
      token: admin,
      body: { linkConfig },
    });
    for (const response of [created, patched]) {
      expect(response.status).toBe(400);
      const answer = await jsonOf(response);
      expect(answer.data.name).toBe('ValidationError');
      expect(namedFields(answer)).toEqual([`linkConfig.${field}`]);
    }
  });

  it('refuses a field the campaign does not have', async () => {
    const response = await postCampaign({ ...campaignBody({ isActive: false }), tenant: 'another' });
    expect(response.status).toBe(400);
  });
});

// Brief: "at most one ACTIVE campaign per tenant ... activating a second is 409 ConflictError naming the active one".
describe('one active campaign', () => {
  it('refuses to create or activate a second active campaign, naming the active one', async () => {
    const created = await postCampaign(campaignBody({ name: 'Second' }));
    expect(created.status).toBe(409);
    expect((await jsonOf(created)).data).toMatchObject({ name: 'ConflictError', activeCampaignId: campaign.id });
    const inactive = await dataOf<Json>(await postCampaign(campaignBody({ name: 'Second', isActive: false })));
    const activated = await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${inactive.id}`, {
      token: admin,
      body: { isActive: true },
    });
    expect(activated.status).toBe(409);
    expect((await jsonOf(activated)).message).toContain(campaign.id);
  });

  it('changes referralCodeType only while the campaign has issued no code', async () => {
    const issued = await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
      token: admin,
      body: { referralCodeType: 'LINK' },
    });
    expect(issued.status).toBe(409);
    const fresh = await dataOf<Json>(await postCampaign(campaignBody({ name: 'Fresh', isActive: false })));
    const changed = await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${fresh.id}`, {
      token: admin,
      body: { referralCodeType: 'LINK' },
    });
    expect((await dataOf<Json>(changed)).referralCodeType).toBe('LINK');
  });
});

// decisions §13: "Registration with a used source+sourceUserId for that code: 409 ConflictError; with one's own code or an
// unknown or inactive code: 400 BadRequestError".
describe('registration with an invite code', () => {
  it('refuses an unknown code with 400 BadRequestError naming referralInviteCode', async () => {
    const response = await register(referredRegistration('stranger', 'NOSUCHCODE'));
    expect(response.status).toBe(400);
    const answer = await jsonOf(response);
    expect(answer.data.name).toBe('BadRequestError');
    expect(namedFields(answer)).toEqual(['referralInviteCode']);
    expect((await harness.request(tenant, 'GET', '/v1/users/stranger', { token: admin })).status).toBe(404);
  });

  it("refuses one's own code: the same email address in another case, or the same telephone number", async () => {
    const sameEmail = referredRegistration('owner-again', inviteCode);
    sameEmail.profile.emailAddress = 'OWNER@example.com';
    const tenantAllowingDuplicates = await register(sameEmail);
    // docs/referrals.md: "With the tenant's default `allowDuplicateContacts: false`, a registration reusing the
    // referrer's email address or telephone number is refused before this rule, by the contact check: `422
    // UserExistsError` naming the field. The own-code `400` answers tenants that allow duplicate contacts."
    expect(tenantAllowingDuplicates.status).toBe(422);
    expect((await jsonOf(tenantAllowingDuplicates)).data.name).toBe('UserExistsError');
    await harness.request(tenant, 'PATCH', '/v1/tenant', {
      token: await harness.adminToken(tenant, ['admin:tenant']),
      body: { configuration: { allowDuplicateContacts: true } },
    });
    const own = await register(sameEmail);
    expect(own.status).toBe(400);
    expect((await jsonOf(own)).data.name).toBe('BadRequestError');
    const samePhone = referredRegistration('owner-phone', inviteCode);
    Object.assign(samePhone.profile, { telephoneNumber: '+441234567890' });
    expect((await register(samePhone)).status).toBe(400);
  });

  // docs/users.md#registration: "An `authIdentifier` already registered in the tenant is `409 ConflictError`".
  it("answers the code owner's own authIdentifier 409 as a taken one, before the code is looked at", async () => {
    const response = await register(referredRegistration('owner', inviteCode, 'owner-device'));
    expect(response.status).toBe(409);
    expect((await jsonOf(response)).message).toContain('authIdentifier');
  });

  it('answers 409 ConflictError when the same source and sourceUserId sign up again with the code', async () => {
    expect((await register(referredRegistration('first-signup', inviteCode, 'device-1'))).status).toBe(201);
    const again = await register(referredRegistration('second-signup', inviteCode, 'device-1'));
    expect(again.status).toBe(409);
    expect((await jsonOf(again)).data.name).toBe('ConflictError');
    // Another source with the same id is another person.
    const other = referredRegistration('third-signup', inviteCode, 'device-1');
    other.referralActivity.source = 'OTHER';
    expect((await register(other)).status).toBe(201);
  });

  it('refuses a code of an inactive campaign with 400 naming referralInviteCode', async () => {
    const other = await dataOf<Json>(await postCampaign(campaignBody({ name: 'Later', isActive: false })));
    await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
      token: admin,
      body: { isActive: false },
    });
    const response = await register(referredRegistration('too-late', inviteCode));
    expect(response.status).toBe(400);
    expect(namedFields(await jsonOf(response))).toEqual(['referralInviteCode']);
    // No campaign active: no code to hand out.
    expect((await harness.request(tenant, 'GET', '/v1/users/owner/referral_code', { token: admin })).status).toBe(404);
    await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${other.id}`, {
      token: admin,
      body: { isActive: false },
    });
    await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
      token: admin,
      body: { isActive: true },
    });
  });

  // rewards-interface: "referralInviteCode ... requires referralActivity" and the activity's fields as documented.
  it.each([
    ['referralActivity', (body: Json) => delete body.referralActivity],
    ['referralInviteCode', (body: Json) => delete body.referralInviteCode],
    ['source', (body: Json) => (body.referralActivity.source = 'MYSPACE')],
    ['sourceUserId', (body: Json) => delete body.referralActivity.sourceUserId],
    ['activityType', (body: Json) => (body.referralActivity.activityType = 'CLICK')],
    ['userAgent', (body: Json) => (body.referralActivity.userAgent = 'PALM')],
    ['ipAddress', (body: Json) => (body.referralActivity.ipAddress = '300.1.2.3')],
  ])('refuses a registration whose %s is missing or wrong with 400 naming it', async (field, spoil) => {
    const body: Json = referredRegistration(`bad-${field}`, inviteCode);
    spoil(body);
    const response = await register(body);
    expect(response.status).toBe(400);
    const answer = await jsonOf(response);
    expect(JSON.stringify(answer.data.errors ?? answer.message)).toContain(field);
  });
});

// decisions §13: "POST /v1/referral_activities (API key alone) {inviteCode, activityType: 'CLICK', source, sourceUserId, userAgent?}".
describe('clicks', () => {
  const click = (body: Json) => harness.request(tenant, 'POST', '/v1/referral_activities', { body });
  it('refuses an unknown invite code with 400 BadRequestError naming inviteCode', async () => {
    const response = await click({ inviteCode: 'NOSUCH', activityType: 'CLICK', source: 'EMAIL', sourceUserId: 'x' });
    expect(response.status).toBe(400);
    const answer = await jsonOf(response);
    expect(answer.data.name).toBe('BadRequestError');
    expect(namedFields(answer)).toEqual(['inviteCode']);
  });

  it.each([
    ['activityType', { activityType: 'REGISTER' }],
    ['source', { source: 'FAX' }],
    ['sourceUserId', { sourceUserId: '' }],
    ['userAgent', { userAgent: 'PALM' }],
    ['ipAddress', { ipAddress: '203.0.113.1' }],
  ])('refuses a bad %s with 400 ValidationError naming it', async (field, overrides) => {
    const response = await click({
      inviteCode,
      activityType: 'CLICK',
      source: 'EMAIL',
      sourceUserId: 'x',
      ...overrides,
    });
    expect(response.status).toBe(400);
    const answer = await jsonOf(response);
    expect(answer.data.name).toBe('ValidationError');
    expect(JSON.stringify(answer.data.errors)).toContain(field);
  });
});
