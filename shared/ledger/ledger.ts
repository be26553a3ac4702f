import type { Knex } from 'knex';
import { DAY_MS, dayOf, type Day } from './calendar.js';
import { capLeft, recordDays } from './points-days.js';
import { debitLot, debitLots } from './points-lots.js';
import { loadPointsPolicies, type PointsPolicy } from './points-policy.js';

/**
 * shared/ledger/ is the only writer of points (docs/events.md#the-ledger): `ledger_entry`,
 * append-only, and `wallet`, the running totals kept beside it. This module earns in batches (the
 * event worker) and reverses; spend-and-adjust.ts spends and adjusts. Every write runs in the
 * caller's transaction, names its cause and is idempotent by its natural key, so a job run twice
 * moves no point twice. Balances never go below zero: the wallet's CHECK refuses it, and a
 * reversal takes back only what is left.
 */

/** Points a reactor granted for an event. Its key: (event, reactor). */
export interface Earning {
  tenantId: string;
  userId: string;
  points: number;
  cause: { eventId: number; reactorId: string };
}

/** An earning the earn cap cut (docs/points.md#caps): what its reactor asked for, and what it got. */
export interface CutEarning {
  eventId: number;
  reactorId: string;
  requested: number;
  granted: number;
}

export interface Earned {
  /** The points the new entries granted. */
  granted: number;
  cut: CutEarning[];
}

/** An EARN to undo, because of a later event (a receipt rejected after it was authorized). Its key: the EARN. */
export interface Reversal {
  entryId: string;
  cause: { eventId: number };
}

/** An EARN entry not reversed yet. */
export interface OpenEarn {
  entryId: string;
  tenantId: string;
  userId: string;
  points: number;
  eventId: number;
}

/**
 * EARN entries and the wallets they move, for a batch of earnings, at `at`: one statement, and
 * for the tenants with an earn cap one more to lock their members first. Each tenant's settings
 * apply (docs/points.md): an earning beyond what is left of the period's earn cap is cut to it
 * (the entry keeps the points asked for), an earning that expires gets its `expiresAt` and a lot
 * (points-lots.ts), and the member's day records what it earned. An earning whose (event, reactor)
 * entry exists already is skipped, and moves no wallet.
 */
export async function earn(trx: Knex.Transaction, earnings: Earning[], at: Date): Promise<Earned> {
  const asked = earnings.filter((earning) => earning.points > 0);
  if (asked.length === 0) return { granted: 0, cut: [] };
  const policies = await loadPointsPolicies(
    trx,
    asked.map((earning) => earning.tenantId),
  );
  const grants = await capEarnings(trx, asked, policies, at);
  const rows = grants.map(({ earning, granted }) => {
    const { expiryAfterDays } = policies.get(earning.tenantId)!;
    return {
      tenant_id: earning.tenantId,
      user_id: earning.userId,
      points: granted,
      requested_points: granted < earning.points ? earning.points : null,
      event_id: earning.cause.eventId,
      reactor_id: earning.cause.reactorId,
      expires_at: expiryAfterDays && granted > 0 ? new Date(at.getTime() + expiryAfterDays * DAY_MS) : null,
    };
  });
  const days = [...policies].map(([tenantId, policy]) => ({ tenant_id: tenantId, day: dayOf(at, policy.timezone) }));
  const entered = await trx.raw<{ rows: { points: string | null }[] }>(
    `with entered as (
       insert into ledger_entry (id, tenant_id, user_id, kind, points, requested_points, event_id, reactor_id, created_at, expires_at)
       select gen_random_uuid(), tenant_id, user_id, 'EARN', points, requested_points, event_id, reactor_id, ?, expires_at
         from jsonb_to_recordset(?::jsonb)
           as r(tenant_id uuid, user_id uuid, points bigint, requested_points bigint, event_id bigint, reactor_id uuid, expires_at timestamptz)
       on conflict (event_id, reactor_id) do nothing
       returning id, tenant_id, user_id, points, expires_at
     ), lots as (
       insert into points_lot (entry_id, tenant_id, user_id, expires_at, remaining)
       select id, tenant_id, user_id, expires_at, points from entered where expires_at is not null and points > 0
     ), moved as (
       insert into wallet (user_id, tenant_id, points, lifetime_earn, updated_at)
       select user_id, tenant_id, sum(points), sum(points), ? from entered group by user_id, tenant_id
       -- Concurrent batches lock the wallets they share in one order, so they wait, never deadlock.
       order by user_id
       on conflict (user_id) do update set points = wallet.points + excluded.points,
         lifetime_earn = wallet.lifetime_earn + excluded.lifetime_earn, updated_at = excluded.updated_at
       returning user_id
     ), days as (
       -- Reads \`moved\`, so each member's wallet is locked before its day, as every writer of days does.
       insert into points_day (user_id, day, tenant_id, earned, spent)
       select e.user_id, d.day, e.tenant_id, sum(e.points), 0
         from entered e join moved m on m.user_id = e.user_id
         join jsonb_to_recordset(?::jsonb) as d(tenant_id uuid, day date) on d.tenant_id = e.tenant_id
        group by e.user_id, d.day, e.tenant_id
        order by e.user_id
       on conflict (user_id, day) do update set earned = points_day.earned + excluded.earned
     )
     -- PostgreSQL runs a data-modifying WITH to completion whether or not this reads it.
     select sum(points) as points from entered`,
    [at, JSON.stringify(rows), at, JSON.stringify(days)],
  );
  return {
    granted: Number(entered.rows[0]?.points ?? 0),
    cut: grants.flatMap(({ earning, granted }) =>
      granted < earning.points ? [{ ...earning.cause, requested: earning.points, granted }] : [],
    ),
  };
}

/**
 * Each earning with the points it may grant: all it asks, or for a tenant with an earn cap what
 * is left of the member's cap for the period, in batch order. The members' wallets are locked
 * first, all of the batch's in one sorted pass, so concurrent earnings against one cap take
 * turns and never grant past it together.
 */
async function capEarnings(
  trx: Knex.Transaction,
  earnings: Earning[],
  policies: Map<string, PointsPolicy>,
  at: Date,
): Promise<{ earning: Earning; granted: number }[]> {
  const capped = earnings.filter((earning) => policies.get(earning.tenantId)?.earnCap);
  if (capped.length === 0) return earnings.map((earning) => ({ earning, granted: earning.points }));
  await lockWallets(trx, earnings, at);
  const left = new Map<string, number>();
  for (const [tenantId, policy] of policies) {
    if (!policy.earnCap) continue;
    const members = capped.filter((earning) => earning.tenantId === tenantId).map((earning) => earning.userId);
    for (const [userId, points] of await capLeft(trx, 'earned', policy.earnCap, dayOf(at, policy.timezone), members))
      left.set(userId, points);
  }
  return earnings.map((earning) => {
    const available = left.get(earning.userId);
    if (available === undefined) return { earning, granted: earning.points };
    const granted = Math.min(available, earning.points);
    left.set(earning.userId, available - granted);
    return { earning, granted };
  });
}

/** The EARN entries that events caused and that no REVERSAL undid yet, ordered by member then entry. */
export async function openEarns(trx: Knex.Transaction, eventIds: number[]): Promise<OpenEarn[]> {
  if (eventIds.length === 0) return [];
  const rows = await trx.raw<{
    rows: { id: string; tenant_id: string; user_id: string; points: string; event_id: string }[];
  }>(
    `select le.id, le.tenant_id, le.user_id, le.points, le.event_id from ledger_entry le
      where le.event_id = any(?::bigint[]) and le.kind = 'EARN'
        and not exists (select 1 from ledger_entry reversal where reversal.reverses_entry_id = le.id)
      order by le.user_id, le.id`,
    [eventIds.map(String)],
  );
  return rows.rows.map((row) => ({
    entryId: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    points: Number(row.points),
    eventId: Number(row.event_id),
  }));
}

/**
 * A REVERSAL for each EARN, pointing back at it, at `at`, and the wallet moved by as much of the
 * EARN as the balance still holds (what was spent is not taken back, nor what expired), taken
 * from the EARN's own lot first. The day the EARN was earned on counts that much less. An EARN reversed already is
 * skipped.
 */
export async function reverse(trx: Knex.Transaction, reversals: Reversal[], at: Date): Promise<void> {
  for (const { entryId, cause } of reversals) {
    const [entry] = // What the EARN still holds: less what expired of it, which is gone from the balance already.
      (
        await trx.raw<{ rows: { tenant_id: string; user_id: string; points: string; earned_on: Day }[] }>(
          `select le.tenant_id, le.user_id, le.points + coalesce(expiry.points, 0) as points,
                to_char(le.created_at at time zone coalesce(t.configuration->>'timezone', 'UTC'), 'YYYY-MM-DD') as earned_on
           from ledger_entry le join tenant t on t.id = le.tenant_id
           left join ledger_entry expiry on expiry.expires_entry_id = le.id and expiry.tenant_id = le.tenant_id
          where le.id = ? and le.kind = 'EARN'`,
          [entryId],
        )
      ).rows;
    if (!entry) continue;
    const [wallet] = (
      await trx.raw<{ rows: { points: string }[] }>(
        'select points from wallet where tenant_id = ? and user_id = ? for update',
        [entry.tenant_id, entry.user_id],
      )
    ).rows;
    const amount = Math.min(Number(entry.points), Number(wallet?.points ?? 0));
    const entered = await trx.raw<{ rows: unknown[] }>(
      `insert into ledger_entry (id, tenant_id, user_id, kind, points, event_id, reactor_id, reverses_entry_id, created_at)
       values (gen_random_uuid(), ?, ?, 'REVERSAL', ?, ?, null, ?, ?) on conflict (reverses_entry_id) do nothing returning id`,
      [entry.tenant_id, entry.user_id, -amount, cause.eventId, entryId, at],
    );
    if (entered.rows.length === 0) continue;
    await trx.raw(
      'update wallet set points = points - ?, lifetime_earn = lifetime_earn - ?, updated_at = ? where tenant_id = ? and user_id = ?',
      [amount, amount, at, entry.tenant_id, entry.user_id],
    );
    const fromOwnLot = await debitLot(trx, entryId, amount);
    await debitLots(trx, [{ userId: entry.user_id, points: amount - fromOwnLot }]);
    await recordDays(trx, [
      { tenantId: entry.tenant_id, userId: entry.user_id, day: entry.earned_on, earned: -amount },
    ]);
  }
}

/**
 * Locks the wallets a transaction may move, in one sorted pass, so its writes never take wallet
 * locks in an order another transaction could cross. A member without a wallet yet gets an empty
 * one first: a lock needs a row.
 */
export async function lockWallets(
  trx: Knex.Transaction,
  members: { tenantId: string; userId: string }[],
  at: Date,
): Promise<void> {
  if (members.length === 0) return;
  const unique = [...new Map(members.map((member) => [member.userId, member])).values()];
  // One statement, sorted: the wallets that exist are locked by the no-op update, the new ones by
  // their insert, all in user order. Two passes (insert, then lock) would hold a new member's row
  // before an older member's with a lower id, an order another transaction could cross.
  await trx.raw(
    `insert into wallet (user_id, tenant_id, points, lifetime_earn, updated_at)
     select user_id, tenant_id, 0, 0, ?::timestamptz from jsonb_to_recordset(?::jsonb) as r(user_id uuid, tenant_id uuid)
      order by user_id
     on conflict (user_id) do update set user_id = excluded.user_id`,
    [at, JSON.stringify(unique.map((member) => ({ user_id: member.userId, tenant_id: member.tenantId })))],
  );
}
