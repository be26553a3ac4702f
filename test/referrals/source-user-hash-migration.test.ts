import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../shared/database.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import { createCampaign, referredRegistration, storedSourceUser } from './support.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let referrer: Json;
let campaign: Json;
let code: Json;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users']);
  referrer = await registerMember(harness, tenant, admin, 'referrer');
  campaign = await createCampaign(harness, tenant, admin);
  code = await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/users/referrer/referral_code', { token: admin }));
});
afterAll(() => harness.close());

const MIGRATION = 'Migration20261128091837';

const execute = (sql: string, params: unknown[]) => harness.context.orm.em.fork().getConnection().execute(sql, params);

/** Rows of the tenant's referrals and clicks in which the text appears anywhere. */
const rowsHolding = (text: string) =>
  queryOne(
    harness,
    `select (select count(*) from referral_activity r where tenant_id = ? and row_to_json(r)::text like ?)::int as clicks,
            (select count(*) from referral r where tenant_id = ? and row_to_json(r)::text like ?)::int as referrals`,
    [tenant.id, `%${text}%`, tenant.id, `%${text}%`],
  );

// Issue 31: "A click record and a referral keep sourceUserId (often an email address) after erasure: store a keyed
// hash instead. The once-per-code rule must keep working on the hashed value; existing rows are converted by a migration."
describe('referrals and clicks stored with a sourceUserId in the clear', () => {
  it('are hashed by the migration, and the once-per-code rule holds on what it hashed', async () => {
    const referred = await registerMember(harness, tenant, admin, 'referred-before');
    const migrator = harness.context.orm.getMigrator();
    // Down to it, inclusive: the database as it was before it, and what came after.
    await migrator.down({ to: MIGRATION });
    // What a click and a referral of before the migration hold.
    const click = randomUUID();
    await execute(
      `insert into referral_activity (id, tenant_id, code_id, campaign_id, source, source_user_id, user_agent, created_at)
         values (?, ?, ?, ?, 'EMAIL', 'clicked@example.org', 'WEB', now())`,
      [click, tenant.id, code.id, campaign.id],
    );
    await execute(
      `insert into referral (id, tenant_id, code_id, campaign_id, referrer_id, referred_id, source, source_user_id, created_at)
         values (?, ?, ?, ?, ?, ?, 'EMAIL', 'before@example.org', now())`,
      [randomUUID(), tenant.id, code.id, campaign.id, referrer.id, referred.id],
    );

    // Without the platform secret the migration has rows it cannot hash: it refuses, and changes nothing.
    const withoutSecret = await createDatabase(harness.config.databaseUrl);
    try {
      await expect(withoutSecret.getMigrator().up({ to: MIGRATION })).rejects.toThrow(
        new RegExp(`${MIGRATION} rewrites stored values under a key derived from PLATFORM_TOKEN_SECRET`),
      );
    } finally {
      await withoutSecret.close();
    }
    expect(await rowsHolding('@example.org')).toEqual({ clicks: 1, referrals: 1 });

    await migrator.up();

    expect(await rowsHolding('@example.org')).toEqual({ clicks: 0, referrals: 0 });
    expect(await queryOne(harness, 'select source_user_hash from referral_activity where id = ?', [click])).toEqual({
      source_user_hash: storedSourceUser(harness, tenant, 'clicked@example.org'),
    });
    const again = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: referredRegistration('again', code.inviteCode, 'before@example.org'),
    });
    expect(again.status).toBe(409);
    expect((await jsonOf(again)).data.name).toBe('ConflictError');
    const another = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: referredRegistration('another', code.inviteCode, 'another@example.org'),
    });
    expect(another.status).toBe(201);
  });
});
