import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPrepared } from '../../shared/platform/db/prepared-statements.js';
import { READ_CLAIM_UNDER_REVIEW } from '../../shared/receipts/claim-under-review.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { STORE_UNREVIEWED_CLAIM_REVIEW } from '../../shared/receipts/store-unreviewed-claim-review.js';
import { User } from '../../shared/users/user.entity.js';
import { createHarness, registerMember, type Harness } from '../support/harness.js';

// The reviewer's statements on the claim run prepared, so PostgreSQL may reuse a generic plan: one
// made without the parameters' values and, in a new database or with autovacuum behind, without
// statistics. Such a plan once read the claim through a tenant index (every claim of the tenant,
// for each review), and the benchmark slowed down round after round. The claim must be found by its
// primary key whatever the statistics say: the tables here were never analyzed.
let harness: Harness;

beforeAll(async () => {
  harness = await createHarness();
  const tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:users']);
  await registerMember(harness, tenant, admin, 'shopper');
  const member = await harness.context.orm.em
    .fork()
    .findOneOrFail(User, { tenant: tenant.id, authIdentifier: 'shopper' });
  const now = new Date();
  for (let n = 0; n < 50; n++) {
    await insertPrepared(harness.context.orm.em.fork(), Receipt, {
      id: randomUUID(),
      tenant: tenant.id,
      submitter: member.id,
      status: 'PENDING',
      useParser: false,
      timezone: 'UTC',
      fieldConfidences: {},
      lineItems: [],
      createdAt: now,
      updatedAt: now,
    });
  }
});
afterAll(async () => {
  await harness.close();
});

async function genericPlan(sql: string): Promise<string> {
  let parameters = 0;
  const numbered = sql.replace(/\?/g, () => `$${++parameters}`);
  return harness.context.orm.em.getKnex().transaction(async (trx) => {
    await trx.raw('set local plan_cache_mode = force_generic_plan');
    await trx.raw(`prepare statement_under_test as ${numbered}`);
    const explained = await trx.raw<{ rows: { 'QUERY PLAN': string }[] }>(
      `explain execute statement_under_test(${Array(parameters).fill('null').join(', ')})`,
    );
    await trx.raw('deallocate statement_under_test');
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe("the reviewer's prepared statements, planned without statistics", () => {
  it('read the claim under review by its primary key, and look for its duplicates by barcode and by transaction id', async () => {
    const plan = await genericPlan(READ_CLAIM_UNDER_REVIEW);
    expect(plan).toMatch(/Index Scan using receipt_pkey on receipt r\b/);
    // docs/receipts.md#automated-checks: DUPLICATE is "same image hash, or same merchant, date, total and barcode or transaction id"; many claims share the rest.
    expect(plan).toMatch(/Index Scan using receipt_barcode_index on receipt d/);
    expect(plan).toMatch(/Index Scan using receipt_transaction_id_index on receipt d/);
  });

  it('lock and update the unreviewed claim by its primary key', async () => {
    const plan = await genericPlan(STORE_UNREVIEWED_CLAIM_REVIEW);
    const claimScans = plan.split('\n').filter((line) => /Scan .* on receipt( |$)/.test(line));
    expect(claimScans.length).toBeGreaterThan(0);
    expect(claimScans.every((line) => line.includes('using receipt_pkey'))).toBe(true);
  });
});
