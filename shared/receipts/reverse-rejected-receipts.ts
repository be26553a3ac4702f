import type { Knex } from 'knex';
import { RECEIPT_REVIEWED } from '../kernel/system-event-names.js';
import { isUuid } from '../platform/db/tenant-record.js';
import { lockWallets, openEarns, reverse, type Reversal } from '../ledger/ledger.js';

interface Review {
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
export function reviewedReceipts(
  jobs: {
    id: number;
    tenantId: string;
    eventTypeName: string;
    intrinsic?: boolean;
    payload: Record<string, unknown>;
  }[],
): ReviewedReceipt[] {
  return jobs
    .filter(
      (job) =>
        job.intrinsic &&
        job.eventTypeName === RECEIPT_REVIEWED &&
        typeof job.payload.receiptId === 'string' &&
        isUuid(job.payload.receiptId),
    )
    .map((job) => ({ eventId: job.id, tenantId: job.tenantId, receiptId: job.payload.receiptId as string }));
}

/**
 * Taken first in a registration's transaction that names receipts: the receipts' advisory locks, so
 * two batches touching one receipt wait for each other and the later one sees what the earlier one
 * committed; then every wallet the registration may change (its members' and the receipts'
 * submitters'), in one sorted pass (ledger.ts).
 */
export async function lockReviewedReceipts(
  trx: Knex.Transaction,
  receipts: ReviewedReceipt[],
  members: { tenantId: string; userId: string }[],
  at: Date,
): Promise<void> {
  if (receipts.length === 0) return;
  const keys = [...new Set(receipts.map(({ receiptId }) => receiptId))].sort();
  await trx.raw(`select pg_advisory_xact_lock(hashtext('receipt:' || id)) from unnest(?::text[]) as id order by id`, [
    keys,
  ]);
  // Each receipt within the tenant of the event that names it.
  const submitters = await trx.raw<{ rows: { tenant_id: string; submitter_id: string }[] }>(
    'select tenant_id, submitter_id from receipt where (tenant_id, id) in (select * from unnest(?::uuid[], ?::uuid[]))',
    [receipts.map(({ tenantId }) => tenantId), receipts.map(({ receiptId }) => receiptId)],
  );
  await lockWallets(
    trx,
    [...members, ...submitters.rows.map((row) => ({ tenantId: row.tenant_id, userId: row.submitter_id }))],
    at,
  );
}

/**
 * docs/receipts.md#reporting-reviews: "Points granted for a receipt are reversed if it is later
 * rejected". Runs in the event worker's registration transaction for every receipt a newly
 * registered RECEIPT_REVIEWED event names. An EARN caused by an AUTHORIZED event is reversed once
 * (the ledger keeps each EARN's REVERSAL unique) when the receipt was rejected after it (a higher
 * statusVersion): whichever of the two events registers last does it, so the order in which they
 * reach the worker does not matter. The cause of the reversal is the rejection's event. Concurrent
 * registrations of one receipt's events hold its locks (lockReviewedReceipts).
 */
export async function reverseRejectedReceiptPoints(
  trx: Knex.Transaction,
  receipts: ReviewedReceipt[],
  at: Date,
): Promise<void> {
  if (receipts.length === 0) return;
  const pairs = JSON.stringify(
    receipts.map(({ tenantId, receiptId }) => ({ tenant_id: tenantId, receipt_id: receiptId })),
  );
  const named = `select tenant_id, receipt_id from jsonb_to_recordset(?::jsonb) as n(tenant_id uuid, receipt_id uuid)`;
  const reviews = async (verdict: 'REJECT' | 'AUTHORIZE') =>
    (
      await trx.raw<{ rows: Review[] }>(
        `select r.receipt_id, r.status_version, r.event_id from receipt_review r join event e on e.id = r.event_id
          where (r.tenant_id, r.receipt_id) in (${named}) and r.verdict = ?`,
        [pairs, verdict],
      )
    ).rows;
  const rejections = await reviews('REJECT');
  if (rejections.length === 0) return;
  const authorizations = new Map((await reviews('AUTHORIZE')).map((review) => [Number(review.event_id), review]));
  const reversals: Reversal[] = [];
  for (const earn of await openEarns(trx, [...authorizations.keys()])) {
    const earned = authorizations.get(earn.eventId)!;
    const rejection = rejections
      .filter(
        (candidate) => candidate.receipt_id === earned.receipt_id && candidate.status_version > earned.status_version,
      )
      .sort((a, b) => a.status_version - b.status_version)[0];
    if (rejection) reversals.push({ entryId: earn.entryId, cause: { eventId: Number(rejection.event_id) } });
  }
  await reverse(trx, reversals, at);
}
