import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, queryOne, type Harness } from '../support/harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

const MIGRATION = 'Migration20261128041500';
/** The migration applied before it, so that down() undoes that one alone. */
const BEFORE = 'Migration20261128005848';
const typesOf = async (tenantId: string) =>
  (
    await harness.context.orm.em
      .getConnection()
      .execute<{ name: string; is_system: boolean }[]>(
        `select name, is_system from event_type where tenant_id = ? order by name`,
        [tenantId],
      )
  ).map(({ name, is_system }) => `${name}${is_system ? '' : ' (own)'}`);

// decisions §13: "Every tenant has the private system types REFERRAL_COMPLETED (subject the
// referrer; payload {campaignId, referredUserId, tranche}) and REFERRED_REGISTRATION".
describe('the referral system types', () => {
  it('are created with every new tenant, private, active and without a secret', async () => {
    const tenant = await harness.createTenant();

    expect(await typesOf(tenant.id)).toEqual([
      'ORDER_PLACED',
      'RECEIPT_REVIEWED',
      'REFERRAL_COMPLETED',
      'REFERRED_REGISTRATION',
    ]);
    const row = await queryOne(
      harness,
      `select is_private, is_active, secret_hash from event_type where tenant_id = ? and name = 'REFERRAL_COMPLETED'`,
      [tenant.id],
    );
    expect(row).toEqual({ is_private: true, is_active: true, secret_hash: null });
  });

  it("are given by their migration to tenants created before it, leaving a tenant's own type of that name alone", async () => {
    const older = await harness.createTenant();
    const withOwnType = await harness.createTenant();
    const migrator = harness.context.orm.getMigrator();
    await migrator.down({ to: BEFORE });
    expect(await typesOf(older.id)).toEqual(['ORDER_PLACED', 'RECEIPT_REVIEWED']);
    await harness.context.orm.em.getConnection().execute(
      `insert into event_type (id, tenant_id, name, description, is_private, is_system, created_at, updated_at)
         values (gen_random_uuid(), ?, 'REFERRAL_COMPLETED', 'ours', false, false, now(), now())`,
      [withOwnType.id],
    );

    await migrator.up({ to: MIGRATION });

    expect(await typesOf(older.id)).toEqual([
      'ORDER_PLACED',
      'RECEIPT_REVIEWED',
      'REFERRAL_COMPLETED',
      'REFERRED_REGISTRATION',
    ]);
    expect(await typesOf(withOwnType.id)).toEqual([
      'ORDER_PLACED',
      'RECEIPT_REVIEWED',
      'REFERRAL_COMPLETED (own)',
      'REFERRED_REGISTRATION',
    ]);
  });
});
