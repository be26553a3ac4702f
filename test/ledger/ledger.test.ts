import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earn, lockWallets, openEarns, reverse } from '../../shared/ledger/ledger.js';
import { adjust, spend } from '../../shared/ledger/spend-and-adjust.js';
import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { InsufficientPointsError } from '../../shared/platform/errors/app-errors.js';
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
  return queryOne(
    harness,
    'select points::int, lifetime_earn::int as "lifetimeEarn", (select coalesce(sum(points), 0)::int from ledger_entry where user_id = ?) as ledger from wallet where user_id = ?',
    [member.id, member.id],
  );
}

// docs/events.md#the-ledger: "The ledger is append-only: every change of points is an entry … with its cause …
// Balances derive from it and never go below zero. Reporting the same event twice to a worker (a
// retry) never grants twice."
describe('the ledger', () => {
  it('earns once per (event, reactor), however often it is asked, and keeps the wallet equal to the entries', async () => {
    const reactorId = randomUUID();
    const earning = { tenantId: tenant.id, userId: member.id, points: 30, cause: { eventId: 9_000_001, reactorId } };
    await inTransaction((trx) =>
      earn(trx, [earning, { ...earning, cause: { eventId: 9_000_002, reactorId } }], new Date()),
    );
    await inTransaction((trx) => earn(trx, [earning], new Date()));
    expect(await balance()).toEqual({ points: 60, lifetimeEarn: 60, ledger: 60 });
  });

  it('reverses an EARN once, and never takes the balance below zero', async () => {
    const [first, second] = await inTransaction((trx) => openEarns(trx, [9_000_001, 9_000_002]));
    await inTransaction((trx) =>
      reverse(trx, [{ entryId: first!.entryId, cause: { eventId: 9_000_003 } }], new Date()),
    );
    await inTransaction((trx) =>
      reverse(trx, [{ entryId: first!.entryId, cause: { eventId: 9_000_003 } }], new Date()),
    );
    expect(await balance()).toEqual({ points: 30, lifetimeEarn: 30, ledger: 30 });
    expect(await inTransaction((trx) => openEarns(trx, [9_000_001, 9_000_002]))).toEqual([second]);

    // Spent meanwhile (as a purchase will): only what is left is taken back.
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute('update wallet set points = 10 where user_id = ?', [member.id]);
    await inTransaction(async (trx) => {
      await lockWallets(trx, [{ tenantId: tenant.id, userId: member.id }], new Date());
      await reverse(trx, [{ entryId: second!.entryId, cause: { eventId: 9_000_004 } }], new Date());
    });
    expect((await balance()).points).toBe(0);
    expect(
      await queryOne(harness, 'select points::int from ledger_entry where reverses_entry_id = ?', [second!.entryId]),
    ).toEqual({ points: -10 });
  });
});

// docs/events.md#the-ledger: spending and adjustments are entries with their cause, balances never
// go below zero, and concurrent requests cannot overspend.
describe('spending and adjustments', () => {
  let spender: { id: string };
  const walletOf = async (userId: string) =>
    queryOne(
      harness,
      'select points::int, lifetime_earn::int as "lifetimeEarn", (select coalesce(sum(points), 0)::int from ledger_entry where user_id = ?) as ledger from wallet where user_id = ?',
      [userId, userId],
    );
  const entries = async (userId: string, kind: string) =>
    (
      await queryOne(harness, 'select count(*)::int as n from ledger_entry where user_id = ? and kind = ?', [
        userId,
        kind,
      ])
    ).n as number;

  beforeAll(async () => {
    spender = await registerMember(harness, tenant, await harness.adminToken(tenant, ['admin:users']), 'spender');
    await inTransaction((trx) =>
      earn(
        trx,
        [
          {
            tenantId: tenant.id,
            userId: spender.id,
            points: 100,
            cause: { eventId: 9_100_001, reactorId: randomUUID() },
          },
        ],
        new Date(),
      ),
    );
  });

  it('spends once per purchase: asked again, it answers the first entry and takes nothing more', async () => {
    const purchaseId = randomUUID();
    const spending = {
      tenantId: tenant.id,
      userId: spender.id,
      points: 30,
      cause: { purchaseId },
      at: new Date(),
      policy: pointsPolicyOf({}),
    };
    const first = await inTransaction((trx) => spend(trx, spending));
    const again = await inTransaction((trx) => spend(trx, spending));
    expect(first).toMatchObject({ kind: 'SPEND', points: -30 });
    expect(again).toEqual(first);
    expect(await walletOf(spender.id)).toEqual({ points: 70, lifetimeEarn: 100, ledger: 70 });
  });

  it('refuses a spend beyond the balance with InsufficientPointsError, and writes nothing', async () => {
    const spending = {
      tenantId: tenant.id,
      userId: spender.id,
      points: 71,
      cause: { purchaseId: randomUUID() },
      at: new Date(),
      policy: pointsPolicyOf({}),
    };
    await expect(inTransaction((trx) => spend(trx, spending))).rejects.toBeInstanceOf(InsufficientPointsError);
    expect(await walletOf(spender.id)).toEqual({ points: 70, lifetimeEarn: 100, ledger: 70 });
    expect(await entries(spender.id, 'SPEND')).toBe(1);
  });

  it('lets concurrent spends take the balance to zero and no further', async () => {
    const attempts = Array.from({ length: 15 }, () =>
      inTransaction((trx) =>
        spend(trx, {
          tenantId: tenant.id,
          userId: spender.id,
          points: 10,
          cause: { purchaseId: randomUUID() },
          at: new Date(),
          policy: pointsPolicyOf({}),
        }),
      ),
    );
    const outcomes = await Promise.allSettled(attempts);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(7);
    for (const outcome of outcomes.filter((each) => each.status === 'rejected'))
      expect(outcome.reason).toBeInstanceOf(InsufficientPointsError);
    expect(await walletOf(spender.id)).toEqual({ points: 0, lifetimeEarn: 100, ledger: 0 });
  });

  it('adjusts up and down once per adjustment id, naming reason and actor; a credit is no earning', async () => {
    const credit = {
      entryId: randomUUID(),
      tenantId: tenant.id,
      userId: spender.id,
      points: 25,
      cause: { reason: 'goodwill', actor: 'support-desk' },
      at: new Date(),
    };
    const first = await inTransaction((trx) => adjust(trx, credit));
    expect(await inTransaction((trx) => adjust(trx, credit))).toEqual(first);
    expect(first).toMatchObject({ id: credit.entryId, kind: 'ADJUSTMENT', points: 25 });
    expect(await queryOne(harness, 'select reason, actor from ledger_entry where id = ?', [credit.entryId])).toEqual({
      reason: 'goodwill',
      actor: 'support-desk',
    });
    await inTransaction((trx) => adjust(trx, { ...credit, entryId: randomUUID(), points: -5 }));
    expect(await walletOf(spender.id)).toEqual({ points: 20, lifetimeEarn: 100, ledger: 20 });
  });

  it('refuses a negative adjustment larger than the balance, and a member with no wallet has no balance', async () => {
    const debit = {
      entryId: randomUUID(),
      tenantId: tenant.id,
      userId: spender.id,
      points: -21,
      cause: { reason: 'clawback', actor: 'support-desk' },
      at: new Date(),
    };
    await expect(inTransaction((trx) => adjust(trx, debit))).rejects.toBeInstanceOf(InsufficientPointsError);
    expect(
      await queryOne(harness, 'select count(*)::int as n from ledger_entry where id = ?', [debit.entryId]),
    ).toEqual({ n: 0 });
    const newcomer = await registerMember(
      harness,
      tenant,
      await harness.adminToken(tenant, ['admin:users']),
      'newcomer',
    );
    await expect(
      inTransaction((trx) =>
        spend(trx, {
          tenantId: tenant.id,
          userId: newcomer.id,
          points: 1,
          cause: { purchaseId: randomUUID() },
          at: new Date(),
          policy: pointsPolicyOf({}),
        }),
      ),
    ).rejects.toBeInstanceOf(InsufficientPointsError);
  });
});
