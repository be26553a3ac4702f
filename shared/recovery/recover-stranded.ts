import type { Queue } from 'bullmq';
import { addAuditJob } from '../audit/audit-log.js';
import { AuditOutbox } from '../audit/audit-outbox.entity.js';
import type { AppContext } from '../context.js';
import type { Orm } from '../platform/db/orm.js';
import { eventJobId, jobEvents } from '../events/event-job.js';
import type { IntrinsicEventDependencies } from '../events/queue-intrinsic-event.js';
import { Order } from '../orders/order.entity.js';
import { reportOrderPlaced } from '../orders/order-service.js';
import type { Queues } from '../job-catalog.js';
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

export function recoveryDependencies(context: Pick<AppContext, 'orm' | 'queues' | 'eventTypes' | 'eventQueue'>): RecoveryDependencies {
  return { orm: context.orm, queues: context.queues, eventTypes: context.eventTypes, eventQueue: context.eventQueue };
}

export interface Recovered {
  images: number;
  reviews: number;
  reviewEvents: number;
  orderEvents: number;
  reportJobs: number;
  auditEntries: number;
}


/**
 * What a crash between a commit and its queueing can strand, put on its queue again
 * (docs/operations.md#durability: "An accepted request is never lost"): a claim stored but its
 * image never queued for reading, a parsed claim never reviewed, a review's or an order's event
 * never queued. Every step's job id comes from what it is about, so queueing one that is in fact
 * still waiting (a backlog) adds nothing, and the event worker registers an event id once. A review
 * or an event whose job failed for good (its store was down through every attempt, say) is retried
 * rather than left to block its id, and so is a job of reported events (answered 201, recorded as
 * accepted until registered); an image that could not be read goes to a person. An admin change's
 * audit entry still in the outbox is queued again under its own id, so one still waiting adds
 * nothing.
 */
export async function recoverStranded(deps: RecoveryDependencies, strandedAfterMs = STRANDED_AFTER_MS): Promise<Recovered> {
  const em = deps.orm.em.fork();
  const before = new Date(Date.now() - strandedAfterMs);
  const since = new Date(Date.now() - LOOKBACK_MS);

  const unread = await em.find(Receipt, { useParser: true, parsedAt: null, createdAt: { $lt: before } }, { fields: ['id', 'tenant'], orderBy: { createdAt: 'asc' }, limit: BATCH });
  for (const receipt of unread) {
    const jobId = receiptJobId('ocr', receipt.id);
    const job = await deps.queues.ocr.getJob(jobId);
    // Reading failed through every attempt (an image that crashes the reader, a store that was
    // down): not again, as that could go on forever; a person decides the claim instead.
    if (job && (await job.isFailed())) {
      await em.nativeUpdate(Receipt, { id: receipt.id, parsedAt: null }, { parseError: `the image could not be read: ${job.failedReason}`.slice(0, 500), parsedAt: new Date() });
      await queueReview(deps.queues, receipt.tenant.id, receipt.id);
    } else {
      await deps.queues.ocr.add('read', { tenantId: receipt.tenant.id, receiptId: receipt.id }, { jobId });
    }
  }

  const undecided = await em.find(Receipt, { parsedAt: { $lt: before }, paramountReviewId: null }, { fields: ['id', 'tenant'], orderBy: { parsedAt: 'asc' }, limit: BATCH });
  for (const receipt of undecided) {
    await retryIfFailed(deps.queues.reviews, receiptJobId('review', receipt.id));
    await queueReview(deps.queues, receipt.tenant.id, receipt.id);
  }

  // Reviews and orders whose event was allocated but is not registered, after the grace time.
  const unreported = async (table: string) =>
    (
      await em.getConnection().execute<{ id: string }[]>(
        `select t.id from ${table} t where t.event_id is not null and t.created_at >= ? and t.created_at < ?
            and not exists (select 1 from event e where e.id = t.event_id) order by t.created_at limit ${BATCH}`,
        [since, before],
      )
    ).map((row) => row.id);
  const reviewIds = await unreported('receipt_review');
  const reviews = reviewIds.length ? await em.find(Review, { id: { $in: reviewIds } }, { populate: ['receipt'] }) : [];
  for (const review of reviews) {
    await retryIfFailed(deps.queues.events, eventJobId(review.eventId!));
    await reportReview(deps, review.receipt as Receipt, review);
  }

  const orderIds = await unreported('pos_order');
  const orders = orderIds.length ? await em.find(Order, { id: { $in: orderIds } }) : [];
  for (const order of orders) {
    await retryIfFailed(deps.queues.events, eventJobId(order.eventId!));
    await reportOrderPlaced(deps, order.tenant.id, order);
  }
  // Its registered events were forgotten as they went: a run again registers only what is left.
  const failedReports = (await deps.queues.events.getFailed(0, BATCH - 1)).filter((job) => !jobEvents(job.data).claimedByJob);
  for (const job of failedReports) await job.retry();

  const unaudited = await em.find(AuditOutbox, { createdAt: { $lt: before } }, { orderBy: { createdAt: 'asc' }, limit: BATCH });
  for (const staged of unaudited) {
    await retryIfFailed(deps.queues.audit, staged.id);
    await addAuditJob(deps.queues, staged.job);
  }
  return {
    images: unread.length,
    reviews: undecided.length,
    reviewEvents: reviews.length,
    orderEvents: orders.length,
    reportJobs: failedReports.length,
    auditEntries: unaudited.length,
  };
}

async function retryIfFailed(queue: Queue, jobId: string): Promise<void> {
  const job = await queue.getJob(jobId);
  if (job && (await job.isFailed())) await job.retry();
}
