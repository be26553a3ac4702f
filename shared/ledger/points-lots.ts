import type { Knex } from 'knex';

/**
 * The unspent rest of each expiring EARN (points-lot.entity.ts). Every debit of a balance (a
 * spend, a negative adjustment, a reversal, an expiry) takes from the member's lots too, soonest
 * to expire first, so a member's lots never hold more than its balance and what expires is what
 * was not spent (docs/points.md#expiry). Callers hold the member's wallet row locked (the debit
 * of the wallet takes that lock), and call these in a statement after it: its snapshot then sees
 * every lot change committed before the lock was granted.
 */

export interface LotDebit {
  userId: string;
  points: number;
}

/** Takes `points` from each member's lots, soonest to expire first; lots emptied are deleted. */
export async function debitLots(trx: Knex.Transaction, debits: LotDebit[]): Promise<void> {
  const owed = new Map<string, number>();
  for (const { userId, points } of debits) if (points > 0) owed.set(userId, (owed.get(userId) ?? 0) + points);
  if (owed.size === 0) return;
  // `before`: what the member's sooner lots cover. A lot is emptied when the debit reaches past
  // it, cut when the debit ends inside it, and left alone when the debit ends before it.
  await trx.raw(
    `with debit as (
       select * from jsonb_to_recordset(?::jsonb) as d(user_id uuid, points bigint)
     ), reached as (
       select l.entry_id, l.remaining, d.points as owed,
              sum(l.remaining) over (partition by l.user_id order by l.expires_at, l.entry_id) - l.remaining as before
         from points_lot l join debit d on d.user_id = l.user_id
     ), cut as (
       update points_lot l set remaining = l.remaining - (r.owed - r.before)
         from reached r
        where l.entry_id = r.entry_id and r.owed > r.before and r.owed < r.before + r.remaining
     )
     delete from points_lot l using reached r where l.entry_id = r.entry_id and r.owed >= r.before + r.remaining`,
    [JSON.stringify([...owed].map(([userId, points]) => ({ user_id: userId, points })))],
  );
}

/**
 * Takes up to `points` from one EARN's own lot (a reversal takes back the points it granted
 * first); resolves to what the lot gave.
 */
export async function debitLot(trx: Knex.Transaction, entryId: string, points: number): Promise<number> {
  const [lot] = (
    await trx.raw<{ rows: { remaining: string }[] }>('select remaining from points_lot where entry_id = ? for update', [
      entryId,
    ])
  ).rows;
  if (!lot || points <= 0) return 0;
  const remaining = Number(lot.remaining);
  if (points >= remaining) {
    await trx.raw('delete from points_lot where entry_id = ?', [entryId]);
    return remaining;
  }
  await trx.raw('update points_lot set remaining = remaining - ? where entry_id = ?', [points, entryId]);
  return points;
}
