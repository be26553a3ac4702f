import type { IntrinsicEventDependencies } from '../events/queue-intrinsic-event.js';
import { eventJobId, type EventsQueue } from '../events/event-job.js';
import { idsWithUnregisteredEvents } from '../events/stranded-events.js';
import type { Orm } from '../platform/db/orm.js';
import { retryIfFailed, type SweepWindow } from '../platform/queues/stranded-work.js';
import { queueReview } from './claim-service.js';
import { Receipt } from './receipt.entity.js';
import { receiptJobId, type ReceiptQueues } from './receipt-job.js';
import { reportReview } from './review-service.js';
import { Review } from './review.entity.js';

export interface ClaimRecoveryDependencies extends IntrinsicEventDependencies {
  orm: Orm;
  queues: ReceiptQueues & EventsQueue;
}

/**
 * A claim's steps a crash between a commit and its queueing can strand, queued again: an image
 * never read, a parsed claim never reviewed, a review whose RECEIPT_REVIEWED was never queued.
 * Every job id comes from the receipt or the review, so one still waiting adds nothing. A step
 * whose job failed for good is retried rather than left to block its id; an image that could not
 * be read at all goes to a person.
 */
export async function recoverStrandedClaims(deps: ClaimRecoveryDependencies, window: SweepWindow) {
  const em = deps.orm.em.fork();
  const unread = await em.find(
    Receipt,
    { useParser: true, parsedAt: null, createdAt: { $lt: window.before } },
    { fields: ['id', 'tenant'], orderBy: { createdAt: 'asc' }, limit: window.limit },
  );
  for (const receipt of unread) {
    const jobId = receiptJobId('ocr', receipt.id);
    const job = await deps.queues.ocr.getJob(jobId);
    // Reading failed through every attempt (an image that crashes the reader, a store that was
    // down): not again, as that could go on forever; a person decides the claim instead.
    if (job && (await job.isFailed())) {
      await em.nativeUpdate(
        Receipt,
        { tenant: receipt.tenant.id, id: receipt.id, parsedAt: null },
        { parseError: `the image could not be read: ${job.failedReason}`.slice(0, 500), parsedAt: new Date() },
      );
      await queueReview(deps.queues, receipt.tenant.id, receipt.id);
    } else {
      await deps.queues.ocr.add('read', { tenantId: receipt.tenant.id, receiptId: receipt.id }, { jobId });
    }
  }

  const undecided = await em.find(
    Receipt,
    { parsedAt: { $lt: window.before }, paramountReviewId: null },
    { fields: ['id', 'tenant'], orderBy: { parsedAt: 'asc' }, limit: window.limit },
  );
  for (const receipt of undecided) {
    await retryIfFailed(deps.queues.reviews, receiptJobId('review', receipt.id));
    await queueReview(deps.queues, receipt.tenant.id, receipt.id);
  }

  const reviewIds = await idsWithUnregisteredEvents(em, 'receipt_review', window);
  const reviews = reviewIds.length ? await em.find(Review, { id: { $in: reviewIds } }, { populate: ['receipt'] }) : [];
  for (const review of reviews) {
    await retryIfFailed(deps.queues.events, eventJobId(review.eventId!));
    await reportReview(deps, review.receipt as Receipt, review);
  }
  return { images: unread.length, reviews: undecided.length, reviewEvents: reviews.length };
}
