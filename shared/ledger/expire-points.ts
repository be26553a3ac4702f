import { LIVENESS_RESET, livenessStatement } from '../platform/db/session-liveness.js';
import type { Knex } from 'knex';
import { lockWallets } from './ledger.js';

/**
 * The expiry sweep (docs/points.md#the-sweep): an EXPIRY entry for the unspent rest of every lot
 * due, in batches of one transaction each. A batch's EXPIRY entries, wallet debits and lot
 * deletions commit together, so a sweep killed halfway loses at most the batch in hand, and its
 * rerun finds exactly the lots not expired yet: a lot is deleted in the transaction that expires
 * it, and an EARN's EXPIRY is unique (`expires_entry_id`), so no point expires twice.
 */

export interface ExpiryOptions {
  /** Lots whose `expires_at` is at or before this expire. */
  now: Date;
  /** Lots expired per transaction. */
  batchSize: number;
}

export interface ExpiryRun {
  /** False when another run held the sweep's lock: this one expired nothing and returned at once. */
  ran: boolean;
  /** EXPIRY entries written. */
  entries: number;
  /** Points they took from balances. */
  points: number;
  /** Transactions committed. */
  batches: number;
}

/**
 * The session advisory lock one run holds for its whole length, so runs on several replicas (or a
 * run that outlasts its schedule's interval) take turns: one sweeps, the others return. PostgreSQL
 * releases it when the session ends, so a killed run never leaves it held.
 */
export const EXPIRY_LOCK_KEY = 7_246_193_021;

/**
 * Expires every lot due at `now`, a batch at a time, on one dedicated connection that holds the
 * sweep's lock; resolves to what it expired, or `ran: false` at once when another run holds the lock.
 */
export async function expirePoints(knex: Knex, options: ExpiryOptions): Promise<ExpiryRun> {
  const connection = (await knex.client.acquireConnection()) as PgConnection;
  let locked = false;
  try {
    const taken = await connection.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      EXPIRY_LOCK_KEY,
    ]);
    locked = taken.rows[0]!.locked;
    if (!locked) return { ran: false, entries: 0, points: 0, batches: 0 };
    // The session must end soon after its run does, or it keeps the sweep and a batch's wallets.
    await connection.query(livenessStatement(false), []);
    return { ran: true, ...(await expireDueLots(knex, options, connection)) };
  } finally {
    await release(knex, connection, locked);
  }
}

/**
 * The batches alone, without the sweep's lock (on `connection` when given): safe however many run
 * at once, as each batch locks its wallets and skips the lots another transaction holds; the lock
 * only spares replicas the work of finding the lots gone.
 */
export async function expireDueLots(
  knex: Knex,
  { now, batchSize }: ExpiryOptions,
  connection?: unknown,
): Promise<Omit<ExpiryRun, 'ran'>> {
  const done = { entries: 0, points: 0, batches: 0 };
  for (;;) {
    const batch = await knex.transaction((trx) => expireBatch(trx, now, batchSize), connection ? { connection } : {});
    if (batch.candidates === 0) break;
    done.batches += 1;
    done.entries += batch.entries;
    done.points += batch.points;
    // Lots due but none expired: another run expired them meanwhile (it goes on with the rest), or
    // a transaction this one cannot see past holds them. The next run finds what is left.
    if (batch.lots === 0) break;
  }
  return done;
}

/** The pg client knex pools: only `query` is used here. */
interface PgConnection {
  query<Row>(sql: string, values: unknown[]): Promise<{ rows: Row[] }>;
  __knex__disposed?: unknown;
}

/** Gives the connection back to the pool without the lock, or, when the unlock fails, discards it (its session, and the lock, end). */
async function release(knex: Knex, connection: PgConnection, locked: boolean): Promise<void> {
  if (locked)
    try {
      await connection.query('select pg_advisory_unlock($1)', [EXPIRY_LOCK_KEY]);
      await connection.query(LIVENESS_RESET, []);
    } catch (error) {
      connection.__knex__disposed = error;
    }
  await knex.client.releaseConnection(connection);
}

interface Batch {
  /** Lots due that the batch read. */
  candidates: number;
  /** Lots it expired (deleted). */
  lots: number;
  entries: number;
  points: number;
}

/**
 * One transaction: the next `batchSize` lots due, soonest first; their members' wallets locked in
 * one sorted pass (every writer locks a member's wallet before its lots); then, in one statement,
 * the lots locked (those another transaction holds are skipped, left to the next batch or run),
 * one EXPIRY per lot of what the wallet still holds of it, the wallets debited, the lots deleted.
 * `points_day` and `lifetime_earn` stay: an expiry is neither an earning nor a spend.
 */
async function expireBatch(trx: Knex.Transaction, now: Date, batchSize: number): Promise<Batch> {
  // Read without locking: a lot locked before its member's wallet could deadlock with a spend,
  // which locks the wallet and then debits the lots.
  const candidates = (
    await trx.raw<{ rows: { entry_id: string; tenant_id: string; user_id: string }[] }>(
      `select entry_id, tenant_id, user_id from points_lot where expires_at <= ?
        order by expires_at, entry_id limit ?`,
      [now, batchSize],
    )
  ).rows;
  if (candidates.length === 0) return { candidates: 0, lots: 0, entries: 0, points: 0 };
  await lockWallets(
    trx,
    candidates.map((lot) => ({ tenantId: lot.tenant_id, userId: lot.user_id })),
    now,
  );
  // A statement after the wallet locks: its snapshot sees every change committed before they were
  // granted, so a lot spent, reversed or expired meanwhile is read as it is now, or not at all.
  const expired = await trx.raw<{ rows: { lots: string; entries: string; points: string | null }[] }>(
    `with due as (
       select entry_id, tenant_id, user_id, remaining, expires_at from points_lot
        where entry_id = any(?::uuid[]) and expires_at <= ?
        for update skip locked
     ), expiring as (
       -- What the wallet holds of each lot: all of it, as a member's lots never hold more than its
       -- balance; were that ever not so, never more than the balance (soonest lot first), so it
       -- never goes below zero.
       select d.entry_id, d.tenant_id, d.user_id,
              least(d.remaining, greatest(w.points - (sum(d.remaining) over member_lots - d.remaining), 0)) as points
         from due d join wallet w on w.user_id = d.user_id
       window member_lots as (partition by d.user_id order by d.expires_at, d.entry_id)
     ), entered as (
       insert into ledger_entry (id, tenant_id, user_id, kind, points, expires_entry_id, created_at)
       select gen_random_uuid(), tenant_id, user_id, 'EXPIRY', -points, entry_id, ? from expiring where points > 0
       on conflict (expires_entry_id) do nothing
       returning user_id, -points as points
     ), debited as (
       update wallet w set points = w.points - e.points, updated_at = ?
         from (select user_id, sum(points) as points from entered group by user_id) e
        where w.user_id = e.user_id
     ), deleted as (
       delete from points_lot l using due d where l.entry_id = d.entry_id returning l.entry_id
     )
     select (select count(*) from deleted) as lots, count(*) as entries, sum(points) as points from entered`,
    [candidates.map((lot) => lot.entry_id), now, now, now],
  );
  const row = expired.rows[0]!;
  return {
    candidates: candidates.length,
    lots: Number(row.lots),
    entries: Number(row.entries),
    points: Number(row.points ?? 0),
  };
}
