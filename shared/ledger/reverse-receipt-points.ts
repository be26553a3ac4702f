import type { Knex } from 'knex';
import { RECEIPT_REVIEWED } from '../event-types/system-event-types.js';
import { isUuid } from '../db/tenant-record.js';

interface Earn {
  id: string;
  tenant_id: string;
  user_id: string;
  /** bigint: pg answers it as text. */
  points: string;
  earned_version: number;
  receipt_id: string;
}

interface Rejection {
  receipt_id: string;
  status_version: number;
  event_id: string;
}

/** A receipt a RECEIPT_REVIEWED event names, within its tenant. */
export interface ReviewedReceipt {
  eventId: number;
  tenantId: string;
  receiptId: string;
}

/**
 * The receipts whose points a batch may reverse: those named by RECEIPT_REVIEWED events the
 * platform reported itself. A tenant that rotated a secret into the type can report one too, with
 * any payload; such an event is stored like any other, but moves no receipt's points.
 */
export function reviewedReceipts(jobs: { id: number; tenantId: string; eventTypeName: string; intrinsic?: boolean; payload: Record<string, unknown> }[]): ReviewedReceipt[] {
  return jobs
    .filter((job) => job.intrinsic && job.eventTypeName === RECEIPT_REVIEWED && typeof job.payload.receiptId === 'string' && isUuid(job.payload.receiptId))
    .map((job) => ({ eventId: job.id, tenantId: job.tenantId, receiptId: job.payload.receiptId as string }));
}

/**
 * Taken first in a registration's transaction that names receipts: the receipts' advisory locks, so
 * two batches touching one receipt wait for each other and the later one sees what the earlier one
 * committed; then every wallet the registration may change (its members' and the receipts'
 * submitters'), in one sorted pass, so its grants and reversals never lock wallets in an order
 * another batch could cross.
 */
export async function lockReviewedReceipts(trx: Knex.Transaction, receipts: ReviewedReceipt[], memberIds: string[]): Promise<void> {
  if (receipts.length === 0) return;
  const keys = [...new Set(receipts.map(({ receiptId }) => receiptId))].sort();
  await trx.raw(`select pg_advisory_xact_lock(hashtext('receipt:' || id)) from unnest(?::text[]) as id order by id`, [keys]);
  await trx.raw(
    `select 1 from wallet where user_id in (select unnest(?::uuid[]) union select submitter_id from receipt where id = any(?::uuid[]))
      order by user_id for update`,
    [[...new Set(memberIds)], keys],
  );
}

/**
 * decisions.md §9: "Points granted for a receipt are reversed if it is later rejected". Runs in the
 * event worker's registration transaction for every receipt a newly registered RECEIPT_REVIEWED
 * event names. An EARN caused by an AUTHORIZED event is reversed once (its REVERSAL points back at
 * it) when the receipt was rejected after it (a higher statusVersion): whichever of the two events
 * registers last does it, so the order in which they reach the worker does not matter. The cause of
 * the reversal is the rejection's event.
 *
 * Concurrent registrations of one receipt's events hold its locks (lockReviewedReceipts). A balance
 * never goes below zero: what was already spent is not taken back.
 */
export async function reverseRejectedReceiptPoints(trx: Knex.Transaction, receipts: ReviewedReceipt[]): Promise<void> {
  if (receipts.length === 0) return;
  const pairs = JSON.stringify(receipts.map(({ tenantId, receiptId }) => ({ tenant_id: tenantId, receipt_id: receiptId })));
  const named = `select tenant_id, receipt_id from jsonb_to_recordset(?::jsonb) as n(tenant_id uuid, receipt_id uuid)`;
  const rejections = (
    await trx.raw<{ rows: Rejection[] }>(
      `select r.receipt_id, r.status_version, r.event_id from receipt_review r join event e on e.id = r.event_id
        where (r.tenant_id, r.receipt_id) in (${named}) and r.verdict = 'REJECT'`,
      [pairs],
    )
  ).rows;
  if (rejections.length === 0) return;
  const earns = (
    await trx.raw<{ rows: Earn[] }>(
      `select le.id, le.tenant_id, le.user_id, le.points, r.status_version as earned_version, r.receipt_id
         from receipt_review r join ledger_entry le on le.event_id = r.event_id and le.kind = 'EARN'
        where (r.tenant_id, r.receipt_id) in (${named}) and r.verdict = 'AUTHORIZE'
          and not exists (select 1 from ledger_entry reversal where reversal.reverses_entry_id = le.id)
        order by le.user_id, le.id`,
      [pairs],
    )
  ).rows;
  for (const earn of earns) {
    const rejection = rejections
      .filter((candidate) => candidate.receipt_id === earn.receipt_id && candidate.status_version > earn.earned_version)
      .sort((a, b) => a.status_version - b.status_version)[0];
    if (!rejection) continue;
    const [wallet] = (await trx.raw<{ rows: { points: string }[] }>('select points from wallet where user_id = ? for update', [earn.user_id])).rows;
    const amount = Math.min(Number(earn.points), Number(wallet?.points ?? 0));
    await trx.raw(
      `insert into ledger_entry (id, tenant_id, user_id, kind, points, event_id, reactor_id, reverses_entry_id, created_at)
       values (gen_random_uuid(), ?, ?, 'REVERSAL', ?, ?, null, ?, now())`,
      [earn.tenant_id, earn.user_id, -amount, rejection.event_id, earn.id],
    );
    await trx.raw('update wallet set points = points - ?, lifetime_earn = lifetime_earn - ?, updated_at = now() where user_id = ?', [amount, amount, earn.user_id]);
  }
}
