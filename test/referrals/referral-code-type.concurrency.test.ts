import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, registerMember, type Harness, type Json } from '../support/harness.js';
import { createCampaign } from './support.js';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness();
});
afterAll(async () => {
  await harness.close();
});

const knex = () => harness.context.orm.em.getKnex();

/** Sessions of this test's database waiting for a row lock: the positive signal that a request queued behind one. */
async function waitingOnLock(): Promise<number> {
  const result = await knex().raw<{ rows: { n: number }[] }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
  );
  return result.rows[0]!.n;
}

async function tenantWithCampaign() {
  const tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:users']);
  const member = await registerMember(harness, tenant, admin, 'referrer');
  const campaign = await createCampaign(harness, tenant, admin, { referralCodeType: 'CODE' });
  return { tenant, admin, member, campaign };
}

// docs/referrals.md: "`referralCodeType` changes only while the campaign has issued no code (`409 ConflictError`
// otherwise): the codes already out are of the old kind." A change and a first read of a code take turns on the campaign.
describe('a referralCodeType change racing a first read of a code', () => {
  it('a first read that comes while the type changes waits, and draws a code of the new type', async () => {
    const { tenant, admin, campaign } = await tenantWithCampaign();
    // What a PATCH holds once it has locked the campaign and changed its type, before its commit.
    const change = await knex().transaction();
    let read: Promise<Response>;
    try {
      await change.raw('select 1 from referral_campaign where id = ? for update', [campaign.id]);
      await change.raw(`update referral_campaign set referral_code_type = 'STATIC_USER_WORD_CODE' where id = ?`, [
        campaign.id,
      ]);
      read = harness.request(tenant, 'GET', '/v1/users/referrer/referral_code', { token: admin });
      await expect.poll(waitingOnLock, { timeout: 10_000, interval: 20 }).toBe(1);
      await change.commit();
    } catch (error) {
      await change.rollback();
      throw error;
    }
    const code = await dataOf<Json>(await read);
    expect(code.campaign.referralCodeType).toBe('STATIC_USER_WORD_CODE');
    expect(code.inviteCode).toMatch(/^[a-z]+-[a-z]+-[a-z]+$/);
  });

  it('a type change that comes while a first code is being inserted waits, and is refused once the code is in', async () => {
    const { tenant, admin, member, campaign } = await tenantWithCampaign();
    // What a first read holds once it has drawn a code of the campaign's type, before its commit.
    const insert = await knex().transaction();
    let patch: Promise<Response>;
    try {
      await insert.raw('select 1 from referral_campaign where id = ? for share', [campaign.id]);
      await insert.raw(
        `insert into referral_code (id, tenant_id, campaign_id, member_id, invite_code, invite_link, created_at, updated_at)
         values (?, ?, ?, ?, 'K7MQ2XWD', null, now(), now())`,
        [randomUUID(), tenant.id, campaign.id, member.id],
      );
      patch = harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
        token: admin,
        body: { referralCodeType: 'LINK' },
      });
      await expect.poll(waitingOnLock, { timeout: 10_000, interval: 20 }).toBe(1);
      await insert.commit();
    } catch (error) {
      await insert.rollback();
      throw error;
    }
    const refused = await patch;
    expect(refused.status).toBe(409);
    expect((await jsonOf(refused)).data.fields).toEqual(['referralCodeType']);
  });
});
