import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, registerMember, type Harness, type Json, type TestTenant } from '../support/harness.js';
import { createCampaign } from './support.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users']);
  for (const member of ['ada', 'bob']) await registerMember(harness, tenant, admin, member);
});
afterAll(async () => {
  await harness.close();
});

const codeOf = async (member: string): Promise<Json> =>
  dataOf(await harness.request(tenant, 'GET', `/v1/users/${member}/referral_code`, { token: admin }));

/** Runs `check` under a campaign of `type`, the only active one while it runs. */
async function underCampaign(type: string, check: (campaign: Json) => Promise<void>): Promise<void> {
  const campaign = await createCampaign(harness, tenant, admin, { name: type, referralCodeType: type });
  try {
    await check(campaign);
  } finally {
    await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
      token: admin,
      body: { isActive: false },
    });
  }
}

// issue 23: "the member's invite code for the active campaign, created on first read, unique per tenant, in the campaign's code
// type (a word code is readable words; a link code has inviteLink built from desktopUrl)".
describe('code types', () => {
  it('CODE: a random code of unambiguous characters, one per member, the same on every read', async () => {
    await underCampaign('CODE', async () => {
      const [ada, bob] = [await codeOf('ada'), await codeOf('bob')];
      expect(ada.inviteCode).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
      expect(ada.inviteLink).toBeNull();
      expect(bob.inviteCode).not.toBe(ada.inviteCode);
      expect((await codeOf('ada')).id).toBe(ada.id);
    });
  });

  it("LINK: a random code and an inviteLink built from desktopUrl, keeping the address's own query", async () => {
    await underCampaign('LINK', async () => {
      const ada = await codeOf('ada');
      const link = new URL(ada.inviteLink);
      expect(`${link.origin}${link.pathname}`).toBe('https://coffee.example/join');
      expect(link.searchParams.get('lang')).toBe('en');
      expect(link.searchParams.get('inviteCode')).toBe(ada.inviteCode);
    });
  });

  it('STATIC_USER_CODE: the same code for the member in every campaign of that type, another for another member', async () => {
    let first = '';
    await underCampaign('STATIC_USER_CODE', async () => {
      first = (await codeOf('ada')).inviteCode;
      expect(first).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
      expect((await codeOf('bob')).inviteCode).not.toBe(first);
    });
    await underCampaign('STATIC_USER_CODE', async (campaign) => {
      const again = await codeOf('ada');
      expect(again.campaign.id).toBe(campaign.id);
      expect(again.inviteCode).toBe(first);
    });
  });

  it('STATIC_USER_WORD_CODE: three readable words, stable per member', async () => {
    let first = '';
    await underCampaign('STATIC_USER_WORD_CODE', async () => {
      first = (await codeOf('ada')).inviteCode;
      expect(first).toMatch(/^[a-z]+-[a-z]+-[a-z]+$/);
    });
    await underCampaign('STATIC_USER_WORD_CODE', async () => {
      expect((await codeOf('ada')).inviteCode).toBe(first);
    });
  });

  // Brief: "created on first read (concurrent first reads give one record)".
  it('gives concurrent first reads one record', async () => {
    await registerMember(harness, tenant, admin, 'racer');
    await underCampaign('CODE', async () => {
      const codes = await Promise.all(Array.from({ length: 8 }, () => codeOf('racer')));
      expect(new Set(codes.map((code) => code.id)).size).toBe(1);
    });
  });
});
