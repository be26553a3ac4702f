import type { Knex } from 'knex';

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
 * EARN entries and the wallets they move, for a batch of earnings in one statement. An earning
 * whose (event, reactor) entry exists already is skipped, and moves no wallet. Resolves to the
 * points the new entries granted.
 */
export async function earn(trx: Knex.Transaction, earnings: Earning[]): Promise<number> {
  const rows = earnings
    .filter((earning) => earning.points > 0)
    .map(({ tenantId, userId, points, cause }) => ({
      tenant_id: tenantId,
      user_id: userId,
      points,
      event_id: cause.eventId,
      reactor_id: cause.reactorId,
    }));
  if (rows.length === 0) return 0;
  const granted = await trx.raw<{ rows: { points: string | null }[] }>(
    `with entered as (
       insert into ledger_entry (id, tenant_id, user_id, kind, points, event_id, reactor_id, created_at)
       select gen_random_uuid(), tenant_id, user_id, 'EARN', points, event_id, reactor_id, now()
         from jsonb_to_recordset(?::jsonb) as r(tenant_id uuid, user_id uuid, points bigint, event_id bigint, reactor_id uuid)
       on conflict (event_id, reactor_id) do nothing
       returning tenant_id, user_id, points
     ), moved as (
       insert into wallet (user_id, tenant_id, points, lifetime_earn, updated_at)
       select user_id, tenant_id, sum(points), sum(points), now() from entered group by user_id, tenant_id
       -- Concurrent batches lock the wallets they share in one order, so they wait, never deadlock.
       order by user_id
       on conflict (user_id) do update set points = wallet.points + excluded.points,
         lifetime_earn = wallet.lifetime_earn + excluded.lifetime_earn, updated_at = excluded.updated_at
     )
     -- PostgreSQL runs a data-modifying WITH to completion whether or not this reads it.
     select sum(points) as points from entered`,
    [JSON.stringify(rows)],
  );
  return Number(granted.rows[0]?.points ?? 0);
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
 * A REVERSAL for each EARN, pointing back at it, and the wallet moved by as much of the EARN as the
 * balance still holds (what was spent is not taken back). An EARN reversed already is skipped.
 */
export async function reverse(trx: Knex.Transaction, reversals: Reversal[]): Promise<void> {
  for (const { entryId, cause } of reversals) {
    const [entry] = (
      await trx.raw<{ rows: { tenant_id: string; user_id: string; points: string }[] }>(
        "select tenant_id, user_id, points from ledger_entry where id = ? and kind = 'EARN'",
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
       values (gen_random_uuid(), ?, ?, 'REVERSAL', ?, ?, null, ?, now()) on conflict (reverses_entry_id) do nothing returning id`,
      [entry.tenant_id, entry.user_id, -amount, cause.eventId, entryId],
    );
    if (entered.rows.length === 0) continue;
    await trx.raw(
      'update wallet set points = points - ?, lifetime_earn = lifetime_earn - ?, updated_at = now() where tenant_id = ? and user_id = ?',
      [amount, amount, entry.tenant_id, entry.user_id],
    );
  }
}

/**
 * Locks the wallets a transaction may move, in one sorted pass, so its writes never take wallet
 * locks in an order another transaction could cross.
 */
export async function lockWallets(trx: Knex.Transaction, memberIds: string[]): Promise<void> {
  if (memberIds.length === 0) return;
  await trx.raw('select 1 from wallet where user_id = any(?::uuid[]) order by user_id for update', [
    [...new Set(memberIds)],
  ]);
}
