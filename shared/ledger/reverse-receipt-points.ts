import type { Knex } from 'knex';

interface Earn {
  id: string;
  tenant_id: string;
  user_id: string;
  points: number;
  earned_version: number;
  receipt_id: string;
}

interface Rejection {
  receipt_id: string;
  status_version: number;
  event_id: string;
}

/**
 * decisions.md §9: "Points granted for a receipt are reversed if it is later rejected". Runs in the
 * event worker's registration transaction for every receipt a newly registered RECEIPT_REVIEWED
 * event names. An EARN caused by an AUTHORIZED event is reversed once (its REVERSAL points back at
 * it) when the receipt was rejected after it (a higher statusVersion): whichever of the two events
 * registers last does it, so the order in which they reach the worker does not matter. The cause of
 * the reversal is the rejection's event.
 *
 * Concurrent registrations of one receipt's events take its advisory lock after their inserts, so
 * the later one sees what the earlier one committed. A balance never goes below zero: what was
 * already spent is not taken back.
 */
export async function reverseRejectedReceiptPoints(trx: Knex.Transaction, receiptIds: string[]): Promise<void> {
  if (receiptIds.length === 0) return;
  const ids = [...new Set(receiptIds)].sort();
  await trx.raw(`select pg_advisory_xact_lock(hashtext('receipt:' || id)) from unnest(?::text[]) as id order by id`, [ids]);
  const rejections = (
    await trx.raw<{ rows: Rejection[] }>(
      `select r.receipt_id, r.status_version, r.event_id from receipt_review r join event e on e.id = r.event_id
        where r.receipt_id = any(?::uuid[]) and r.verdict = 'REJECT'`,
      [ids],
    )
  ).rows;
  if (rejections.length === 0) return;
  const earns = (
    await trx.raw<{ rows: Earn[] }>(
      `select le.id, le.tenant_id, le.user_id, le.points, r.status_version as earned_version, r.receipt_id
         from receipt_review r join ledger_entry le on le.event_id = r.event_id and le.kind = 'EARN'
        where r.receipt_id = any(?::uuid[]) and r.verdict = 'AUTHORIZE'
          and not exists (select 1 from ledger_entry reversal where reversal.reverses_entry_id = le.id)
        order by le.user_id, le.id`,
      [ids],
    )
  ).rows;
  for (const earn of earns) {
    const rejection = rejections
      .filter((candidate) => candidate.receipt_id === earn.receipt_id && candidate.status_version > earn.earned_version)
      .sort((a, b) => a.status_version - b.status_version)[0];
    if (!rejection) continue;
    const [wallet] = (await trx.raw<{ rows: { points: number }[] }>('select points from wallet where user_id = ? for update', [earn.user_id])).rows;
    const amount = Math.min(earn.points, wallet?.points ?? 0);
    await trx.raw(
      `insert into ledger_entry (id, tenant_id, user_id, kind, points, event_id, reactor_id, reverses_entry_id, created_at)
       values (gen_random_uuid(), ?, ?, 'REVERSAL', ?, ?, null, ?, now())`,
      [earn.tenant_id, earn.user_id, -amount, rejection.event_id, earn.id],
    );
    await trx.raw('update wallet set points = points - ?, lifetime_earn = lifetime_earn - ?, updated_at = now() where user_id = ?', [amount, amount, earn.user_id]);
  }
}
