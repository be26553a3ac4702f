import type { Orm } from '../db/orm.js';
import type { IntrinsicEventDependencies } from '../events/queue-intrinsic-event.js';
import { Order } from '../orders/order.entity.js';
import { reportOrderPlaced } from '../orders/order-service.js';
import type { Queues } from '../queues/queue-factory.js';
import { queueReview } from '../receipts/claim-service.js';
import { Receipt } from '../receipts/receipt.entity.js';
import { receiptJobId } from '../receipts/receipt-job.js';
import { Review } from '../receipts/review.entity.js';
import { reportReview } from '../receipts/review-service.js';

/** How long work may wait for its next step before it counts as stranded. */
export const STRANDED_AFTER_MS = 60_000;
/** Events are looked for this far back: an event of a type deactivated since is never registered. */
const LOOKBACK_MS = 24 * 3600_000;
const BATCH = 500;

export interface RecoveryDependencies extends IntrinsicEventDependencies {
  orm: Orm;
  queues: Queues;
}

export interface Recovered {
  images: number;
  reviews: number;
  reviewEvents: number;
  orderEvents: number;
}


/**
 * What a crash between a commit and its queueing can strand, put on its queue again
 * (decisions.md §11: "An accepted request is never lost"): a claim stored but its image never
 * queued for reading, a parsed claim never reviewed, a review's or an order's event never queued.
 * Every step's job id comes from what it is about, so queueing one that is in fact still waiting
 * (a backlog) adds nothing, and the event worker registers an event id once.
 */
export async function recoverStranded(deps: RecoveryDependencies, strandedAfterMs = STRANDED_AFTER_MS): Promise<Recovered> {
  const em = deps.orm.em.fork();
  const before = new Date(Date.now() - strandedAfterMs);
  const since = new Date(Date.now() - LOOKBACK_MS);

  const unread = await em.find(Receipt, { useParser: true, parsedAt: null, createdAt: { $lt: before } }, { fields: ['id', 'tenant'], limit: BATCH });
  for (const receipt of unread) await deps.queues.ocr.add('read', { tenantId: receipt.tenant.id, receiptId: receipt.id }, { jobId: receiptJobId('ocr', receipt.id) });

  const undecided = await em.find(Receipt, { parsedAt: { $lt: before }, paramountReviewId: null }, { fields: ['id', 'tenant'], limit: BATCH });
  for (const receipt of undecided) await queueReview(deps.queues, receipt.tenant.id, receipt.id);

  // Reviews and orders whose event was allocated but is not registered, after the grace time.
  const unreported = async (table: string) =>
    (
      await em.getConnection().execute<{ id: string }[]>(
        `select t.id from ${table} t where t.event_id is not null and t.created_at >= ? and t.created_at < ?
            and not exists (select 1 from event e where e.id = t.event_id) limit ${BATCH}`,
        [since, before],
      )
    ).map((row) => row.id);
  const reviewIds = await unreported('receipt_review');
  const reviews = reviewIds.length ? await em.find(Review, { id: { $in: reviewIds } }, { populate: ['receipt'] }) : [];
  for (const review of reviews) await reportReview(deps, review.receipt as Receipt, review);

  const orderIds = await unreported('pos_order');
  const orders = orderIds.length ? await em.find(Order, { id: { $in: orderIds } }) : [];
  for (const order of orders) await reportOrderPlaced(deps, order.tenant.id, order);
  return { images: unread.length, reviews: undecided.length, reviewEvents: reviews.length, orderEvents: orders.length };
}
