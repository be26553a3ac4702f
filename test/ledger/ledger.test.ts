import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earn, lockWallets, openEarns, reverse } from '../../shared/ledger/ledger.js';
import { createHarness, type Harness, queryOne, registerMember, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let member: { id: string };

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  member = await registerMember(harness, tenant, await harness.adminToken(tenant, ['admin:users']), 'saver');
});
afterAll(() => harness.close());

/** Runs `work` in one transaction, as the ledger's callers do. */
function inTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return harness.context.orm.em.fork().getKnex().transaction(work);
}

async function balance() {
  return queryOne(harness, 'select points::int, lifetime_earn::int as "lifetimeEarn", (select coalesce(sum(points), 0)::int from ledger_entry where user_id = ?) as ledger from wallet where user_id = ?', [member.id, member.id]);
}

// decisions.md §6: "The ledger is append-only: every change of points is an entry … with its cause …
// Balances derive from it and never go below zero. Reporting the same event twice to a worker (a
// retry) never grants twice."
describe('the ledger', () => {
  it('earns once per (event, reactor), however often it is asked, and keeps the wallet equal to the entries', async () => {
    const reactorId = randomUUID();
    const earning = { tenantId: tenant.id, userId: member.id, points: 30, cause: { eventId: 9_000_001, reactorId } };
    await inTransaction((trx) => earn(trx, [earning, { ...earning, cause: { eventId: 9_000_002, reactorId } }]));
    await inTransaction((trx) => earn(trx, [earning]));
    expect(await balance()).toEqual({ points: 60, lifetimeEarn: 60, ledger: 60 });
  });

  it('reverses an EARN once, and never takes the balance below zero', async () => {
    const [first, second] = await inTransaction((trx) => openEarns(trx, [9_000_001, 9_000_002]));
    await inTransaction((trx) => reverse(trx, [{ entryId: first!.entryId, cause: { eventId: 9_000_003 } }]));
    await inTransaction((trx) => reverse(trx, [{ entryId: first!.entryId, cause: { eventId: 9_000_003 } }]));
    expect(await balance()).toEqual({ points: 30, lifetimeEarn: 30, ledger: 30 });
    expect(await inTransaction((trx) => openEarns(trx, [9_000_001, 9_000_002]))).toEqual([second]);

    // Spent meanwhile (as a purchase will): only what is left is taken back.
    await harness.context.orm.em.fork().getConnection().execute('update wallet set points = 10 where user_id = ?', [member.id]);
    await inTransaction(async (trx) => {
      await lockWallets(trx, [member.id]);
      await reverse(trx, [{ entryId: second!.entryId, cause: { eventId: 9_000_004 } }]);
    });
    expect((await balance()).points).toBe(0);
    expect(await queryOne(harness, 'select points::int from ledger_entry where reverses_entry_id = ?', [second!.entryId])).toEqual({ points: -10 });
  });
});
