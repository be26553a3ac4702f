import type { Knex } from 'knex';
import { InsufficientPointsError, PointsCapExceededError } from '../platform/errors/app-errors.js';
import { dayOf, periodOf, type Day } from './calendar.js';
import type { LedgerKind } from './ledger-entry.entity.js';
import { recordDays, sumDays } from './points-days.js';
import { lockWallets } from './ledger.js';
import { debitLots } from './points-lots.js';
import type { PointsPolicy } from './points-policy.js';

/**
 * The ledger entries one member's single action makes: a purchase spends (and is refunded when
 * what it bought is never delivered), an admin adjusts. Like
 * the earnings in ledger.ts, each runs in the caller's transaction, names its cause and is
 * idempotent by its natural key; asked again, it answers the entry it made the first time and moves
 * no point. A debit is one conditional update (`points >= amount`), so concurrent spends of one
 * balance cannot overspend it, and the wallet's CHECK stands behind that.
 */

/** Points spent on a purchase. Its key: the purchase. */
export interface Spending {
  tenantId: string;
  userId: string;
  /** How many points the purchase costs: a positive whole number. */
  points: number;
  cause: { purchaseId: string };
  /** When: the purchase's own time, so the entry and the purchase it names agree whatever the clock says. */
  at: Date;
  /** The tenant's points policy: its spend cap and the time zone of its periods. */
  policy: PointsPolicy;
}

/** A purchase whose SPEND is given back, because what it bought was never delivered. Its key: the purchase. */
export interface Refund {
  tenantId: string;
  cause: { purchaseId: string };
  /** When: the refund's own time, as its purchase records it. */
  at: Date;
  /** The tenant's points policy: the time zone of the day the SPEND counted on. */
  policy: PointsPolicy;
}

/** Points an admin adds (positive) or takes away (negative). Its key: `entryId`, the adjustment's own id. */
export interface Adjustment {
  entryId: string;
  tenantId: string;
  userId: string;
  points: number;
  cause: { reason: string; actor: string; jobId?: string };
  at: Date;
}

export interface EntryRecord {
  id: string;
  kind: LedgerKind;
  points: number;
  createdAt: Date;
}

interface EntryRow {
  id: string;
  kind: LedgerKind;
  points: string;
  created_at: Date;
}

const RETURNED = 'id, kind, points, created_at';

/**
 * A SPEND of the purchase's price; 422 InsufficientPointsError when the balance holds less, 422
 * PointsCapExceededError when the tenant's spend cap has less left for the period
 * (docs/points.md#caps). One statement for the entry, the debit of a wallet that holds the price
 * (only if the entry is new) and the day's spending; one more to take the points from the
 * expiring lots, and with a spend cap one to read what is left of it. A purchase is a hot path,
 * and each round trip to PostgreSQL is a share of its time.
 */
export async function spend(trx: Knex.Transaction, spending: Spending): Promise<EntryRecord> {
  if (!Number.isSafeInteger(spending.points) || spending.points <= 0)
    throw new RangeError(`a spend is a positive whole number of points, not ${spending.points}`);
  const { tenantId, userId, points, cause, at, policy } = spending;
  const today = dayOf(at, policy.timezone);
  const entered = await trx.raw<{ rows: (EntryRow & { debited: boolean })[] }>(
    `with entered as (
       insert into ledger_entry (id, tenant_id, user_id, kind, points, purchase_id, created_at)
       values (gen_random_uuid(), ?, ?, 'SPEND', ?, ?, ?)
       on conflict (purchase_id) where kind = 'SPEND' do nothing returning ${RETURNED}
     ), debited as (
       update wallet set points = points - ?, updated_at = ?
        where user_id = ? and tenant_id = ? and points >= ? and exists (select 1 from entered)
       returning user_id
     ), spent as (
       -- Reads \`debited\`, so the wallet is locked before the day, as every writer of days does.
       insert into points_day (user_id, day, tenant_id, earned, spent)
       select user_id, ?, ?, 0, ? from debited
       on conflict (user_id, day) do update set spent = points_day.spent + excluded.spent
     )
     select entered.*, exists (select 1 from debited) as debited from entered`,
    [tenantId, userId, -points, cause.purchaseId, at, points, at, userId, tenantId, points, today, tenantId, points],
  );
  const [entry] = entered.rows;
  if (!entry)
    return existingEntry(trx, "kind = 'SPEND' and purchase_id = ? and tenant_id = ?", [cause.purchaseId, tenantId]);
  // The caller's transaction rolls back, and the entry with it.
  if (!entry.debited) throw insufficient(points);
  if (policy.spendCap) {
    const { max, period } = policy.spendCap;
    const { first, last } = periodOf(today, period);
    // The day written above counts this spend already.
    const used = (await sumDays(trx, 'spent', [{ userId, first, last }])).get(userId) ?? points;
    if (used > max) {
      throw new PointsCapExceededError(
        `A spend of ${points} points is beyond the spend cap of ${max} points per ${period.toLowerCase()}: ${Math.max(0, max - (used - points))} are left`,
      );
    }
  }
  await debitLots(trx, [{ userId, points }]);
  return record(entry);
}

/**
 * A REVERSAL naming the purchase, giving back exactly what its SPEND took, and the wallet credited
 * (docs/rewards.md#partner-products); the day of the SPEND counts it spent no more. Given-back
 * points do not expire (docs/points.md#expiry). Asked again, it answers the first refund and
 * credits nothing more; undefined for a purchase that spent nothing (a free reward).
 */
export async function refund(trx: Knex.Transaction, refunding: Refund): Promise<EntryRecord | undefined> {
  const { tenantId, cause, policy } = refunding;
  const entered = await trx.raw<{ rows: (EntryRow & { user_id: string; spent_on: Day })[] }>(
    `insert into ledger_entry (id, tenant_id, user_id, kind, points, purchase_id, created_at)
     select gen_random_uuid(), tenant_id, user_id, 'REVERSAL', -points, purchase_id, ?::timestamptz from ledger_entry
      where kind = 'SPEND' and purchase_id = ? and tenant_id = ?
     on conflict (purchase_id) where kind = 'REVERSAL' do nothing
     returning ${RETURNED}, user_id, (select to_char(created_at at time zone ?, 'YYYY-MM-DD') from ledger_entry
       where kind = 'SPEND' and purchase_id = ? and tenant_id = ?) as spent_on`,
    [refunding.at, cause.purchaseId, tenantId, policy.timezone, cause.purchaseId, tenantId],
  );
  const [entry] = entered.rows;
  if (entry) {
    await credit(trx, tenantId, entry.user_id, Number(entry.points), refunding.at);
    await recordDays(trx, [{ tenantId, userId: entry.user_id, day: entry.spent_on, spent: -Number(entry.points) }]);
    return record(entry);
  }
  const spent = await trx.raw<{ rows: unknown[] }>(
    "select 1 from ledger_entry where kind = 'SPEND' and purchase_id = ? and tenant_id = ?",
    [cause.purchaseId, tenantId],
  );
  if (spent.rows.length === 0) return undefined;
  return existingEntry(trx, "kind = 'REVERSAL' and purchase_id = ? and tenant_id = ?", [cause.purchaseId, tenantId]);
}

/**
 * An ADJUSTMENT (docs/points.md#adjustments); a negative one larger than the balance is 422
 * InsufficientPointsError, and takes from the expiring lots first like any debit. Added points do
 * not expire, and neither kind counts toward caps or tiers: an admin's correction is no earning.
 */
export async function adjust(trx: Knex.Transaction, adjustment: Adjustment): Promise<EntryRecord> {
  const { entryId, tenantId, userId, points, cause, at } = adjustment;
  if (!Number.isSafeInteger(points) || points === 0)
    throw new RangeError(`an adjustment is a non-zero whole number of points, not ${points}`);
  const entered = await trx.raw<{ rows: EntryRow[] }>(
    `insert into ledger_entry (id, tenant_id, user_id, kind, points, reason, actor, job_id, created_at)
     values (?, ?, ?, 'ADJUSTMENT', ?, ?, ?, ?, ?)
     on conflict (id) do nothing returning ${RETURNED}`,
    [entryId, tenantId, userId, points, cause.reason, cause.actor, cause.jobId ?? null, at],
  );
  const [entry] = entered.rows;
  if (!entry) return existingEntry(trx, "kind = 'ADJUSTMENT' and id = ? and tenant_id = ?", [entryId, tenantId]);
  if (points > 0) await credit(trx, tenantId, userId, points, at);
  else {
    await debit(trx, tenantId, userId, -points, at);
    await debitLots(trx, [{ userId, points: -points }]);
  }
  return record(entry);
}

/** Takes `points` from the member's balance if it holds them, in one statement. */
async function debit(trx: Knex.Transaction, tenantId: string, userId: string, points: number, at: Date): Promise<void> {
  const debited = await trx.raw<{ rowCount: number }>(
    'update wallet set points = points - ?, updated_at = ? where user_id = ? and tenant_id = ? and points >= ?',
    [points, at, userId, tenantId, points],
  );
  if (debited.rowCount === 0) throw insufficient(points);
}

function insufficient(points: number): InsufficientPointsError {
  return new InsufficientPointsError(`The member's balance is less than the ${points} points asked for`);
}

/** Adds `points` to the balance; a credit is no earning, so `lifetime_earn` stays. */
async function credit(
  trx: Knex.Transaction,
  tenantId: string,
  userId: string,
  points: number,
  at: Date,
): Promise<void> {
  await trx.raw(
    `insert into wallet (user_id, tenant_id, points, lifetime_earn, updated_at) values (?, ?, ?, 0, ?)
     on conflict (user_id) do update set points = wallet.points + excluded.points, updated_at = excluded.updated_at`,
    [userId, tenantId, points, at],
  );
}

async function existingEntry(trx: Knex.Transaction, where: string, bindings: string[]): Promise<EntryRecord> {
  const [row] = (await trx.raw<{ rows: EntryRow[] }>(`select ${RETURNED} from ledger_entry where ${where}`, bindings))
    .rows;
  if (!row) throw new Error(`the ledger entry that conflicted is not there (${where})`);
  return record(row);
}

function record(row: EntryRow): EntryRecord {
  return { id: row.id, kind: row.kind, points: Number(row.points), createdAt: row.created_at };
}

/** One line of a bulk adjustment (docs/points.md#bulk-adjustments): an ADJUSTMENT under its own `entryId`. */
export interface BulkAdjustment {
  entryId: string;
  userId: string;
  points: number;
  reason: string;
}

/** What became of each line: applied (or applied already, by an earlier run), or refused for want of points. */
export type BulkOutcome = { applied: true } | { applied: false; message: string };

/**
 * The ADJUSTMENTs of a batch of a bulk job, set-based: the wallets locked in one sorted pass,
 * then one statement per round, where a round holds each member's next line, so a member's
 * lines apply in their order and each sees the balance the one before left; lines of different
 * members share their statements. A negative line larger than the balance at its turn writes
 * nothing and is refused with InsufficientPointsError's message. An entry id already in the ledger
 * moves no point. The points taken are then taken from the members' expiring lots first, in one
 * more statement. Outcomes come back in the lines' order.
 */
export async function adjustInBulk(
  trx: Knex.Transaction,
  tenantId: string,
  lines: BulkAdjustment[],
  cause: { actor: string; jobId: string },
  at: Date,
): Promise<BulkOutcome[]> {
  for (const { points } of lines)
    if (!Number.isSafeInteger(points) || points === 0)
      throw new RangeError(`an adjustment is a non-zero whole number of points, not ${points}`);
  await lockWallets(
    trx,
    lines.map((line) => ({ tenantId, userId: line.userId })),
    at,
  );
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  lines.forEach((line, index) => {
    const round = seen.get(line.userId) ?? 0;
    seen.set(line.userId, round + 1);
    (rounds[round] ??= []).push(index);
  });
  const outcomes: BulkOutcome[] = new Array<BulkOutcome>(lines.length);
  const debits: { userId: string; points: number }[] = [];
  for (const round of rounds) {
    const rows = round.map((index) => ({
      id: lines[index]!.entryId,
      user_id: lines[index]!.userId,
      points: lines[index]!.points,
      reason: lines[index]!.reason,
    }));
    const result = await trx.raw<{ rows: { id: string; entered: boolean; fresh: boolean }[] }>(
      `with line as (
         select * from jsonb_to_recordset(?::jsonb) as r(id uuid, user_id uuid, points bigint, reason text)
       ), fresh as (
         select line.* from line where not exists (select 1 from ledger_entry le where le.id = line.id)
       ), moved as (
         update wallet w set points = w.points + f.points, updated_at = ?
           from fresh f where w.user_id = f.user_id and w.tenant_id = ? and w.points + f.points >= 0
         returning w.user_id
       ), entered as (
         insert into ledger_entry (id, tenant_id, user_id, kind, points, reason, actor, job_id, created_at)
         select f.id, ?, f.user_id, 'ADJUSTMENT', f.points, f.reason, ?, ?, ? from fresh f join moved m on m.user_id = f.user_id
         returning id
       )
       select line.id, exists (select 1 from entered e where e.id = line.id) as entered,
              exists (select 1 from fresh f where f.id = line.id) as fresh
         from line`,
      [JSON.stringify(rows), at, tenantId, tenantId, cause.actor, cause.jobId, at],
    );
    const states = new Map(result.rows.map((row) => [row.id, row]));
    for (const index of round) {
      const line = lines[index]!;
      const state = states.get(line.entryId)!;
      if (state.entered || !state.fresh) {
        outcomes[index] = { applied: true };
        // An entry of an earlier run took its points from the lots then.
        if (state.entered && line.points < 0) debits.push({ userId: line.userId, points: -line.points });
      } else outcomes[index] = { applied: false, message: insufficient(-line.points).message };
    }
  }
  await debitLots(trx, debits);
  return outcomes;
}
