import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHarness,
  dataOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import { campaignBody, createCampaign, referralOf, referredRegistration, storedSourceUser } from './support.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let campaign: Json;
let inviteCode: string;

/** The longest value docs/referrals.md allows: "1 to 256 characters". */
const longest = (letter: string) => letter.repeat(256);

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users']);
  await registerMember(harness, tenant, admin, 'referrer');
  campaign = await createCampaign(harness, tenant, admin, {
    name: longest('n'),
    tranches: [{ referrals: 1, name: longest('t') }],
  });
  const code = await harness.request(tenant, 'GET', '/v1/users/referrer/referral_code', { token: admin });
  inviteCode = (await dataOf<Json>(code)).inviteCode;
});
afterAll(async () => {
  await harness.close();
});

// docs/referrals.md: a campaign's `name` is "1 to 256 characters", a tranche's name and `sourceUserId` too;
// what validation lets through is stored, never a 500.
describe('values at the documented bound', () => {
  it('creates and renames a campaign whose name has 256 characters', async () => {
    expect(campaign.name).toBe(longest('n'));
    const created = await harness.request(tenant, 'POST', '/v1/referral_campaigns', {
      token: admin,
      body: campaignBody({ name: longest('m'), isActive: false }),
    });
    const renamed = await harness.request(
      tenant,
      'PATCH',
      `/v1/referral_campaigns/${(await dataOf<Json>(created)).id}`,
      {
        token: admin,
        body: { name: longest('p') },
      },
    );
    expect((await dataOf<Json>(renamed)).name).toBe(longest('p'));
  });

  it('registers a referred member with a sourceUserId of 256 characters, reaching a tranche named with 256', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: referredRegistration('friend', inviteCode, longest('s')),
    });
    expect(response.status).toBe(201);
    const referral = await referralOf(harness, (await dataOf<Json>(response)).id);
    expect(referral).toMatchObject({
      sourceUserHash: storedSourceUser(harness, tenant, longest('s')),
      tranche: longest('t'),
    });
  });

  it('records a click whose sourceUserId has 256 characters', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/referral_activities', {
      body: { inviteCode, activityType: 'CLICK', source: 'OTHER', sourceUserId: longest('c') },
    });
    expect(response.status).toBe(201);
    const click = await queryOne(harness, 'select source_user_hash from referral_activity where id = ?', [
      (await dataOf<Json>(response)).id,
    ]);
    expect(click.source_user_hash).toBe(storedSourceUser(harness, tenant, longest('c')));
  });
});
