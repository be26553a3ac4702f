import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Counter } from 'prom-client';
import type { AuditDependencies } from '../audit/audit-log.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import type { EntityManager, Orm } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import { RECEIPT_REVIEWED } from '../kernel/system-event-names.js';
import type { EventIdAllocator } from '../events/event-ids.js';
import {
  intrinsicEventId,
  queueIntrinsicEvent,
  type IntrinsicEventDependencies,
} from '../events/queue-intrinsic-event.js';
import { withoutAbsent } from '../platform/json/without-absent.js';
import { decide, type AutomatedDecision } from './automated-review.js';
import { readClaimUnderReview } from './claim-under-review.js';
import { loadReviewFacts, type ReviewerDependencies } from './load-review-facts.js';
import { Receipt } from './receipt.entity.js';
import { claimedView, type ClaimedView } from './receipt-views.js';
import { Review } from './review.entity.js';
import { storeReviewOfUnreviewedClaim } from './store-unreviewed-claim-review.js';

/** What reviews need; the audit log's for a manual review, an admin's change. */
export interface ReviewDependencies extends ReviewerDependencies, IntrinsicEventDependencies, AuditDependencies {
  orm: Orm;
  eventIds: EventIdAllocator;
  /** Reviews stored, by verdict and reviewer: each once, when its transaction commits. */
  reviewsStored: Counter<'verdict' | 'reviewer'>;
}

function reviewCounter(metrics: Metrics): Counter<'verdict' | 'reviewer'> {
  return metrics.counter({
    name: 'tally_receipt_reviews_total',
    help: 'Receipt reviews stored, by verdict (AUTHORIZE, REJECT, ABSTAIN) and reviewer (automated, manual)',
    labelNames: ['verdict', 'reviewer'],
  });
}

export function reviewDependencies(
  context: Omit<ReviewDependencies, 'reviewsStored'> & { metrics: Metrics },
): ReviewDependencies {
  return {
    orm: context.orm,
    eventIds: context.eventIds,
    ruleEngine: context.ruleEngine,
    venues: context.venues,
    eventTypes: context.eventTypes,
    eventQueue: context.eventQueue,
    queues: context.queues,
    logger: context.logger,
    clock: context.clock,
    reviewsStored: reviewCounter(context.metrics),
  };
}

/**
 * The reviewer worker's job: the automated review of a parsed claim, stored once however often the
 * job runs. The decision is made first, outside any transaction: its lookups (rule sets, catalogue,
 * venues, the event id) take connections of their own, and a transaction holding one while waiting
 * for another starves the pool under load. Then the review is stored in one statement while the
 * claim is still unreviewed (the common case); otherwise under the claim's row lock, unless one
 * already was (a rerun, or a racing one caught by the unique index); a manual AUTHORIZE or REJECT
 * made first keeps its say. The RECEIPT_REVIEWED event is queued after the commit, and again by a
 * rerun. Resolves to the claim's decision as POST /receipts shows it, when this review is it.
 */
export async function reviewAutomatically(
  deps: ReviewDependencies,
  tenantId: string,
  receiptId: string,
): Promise<ClaimedView | undefined> {
  const em = deps.orm.em.fork();
  const claimed = isUuid(receiptId) ? await readClaimUnderReview(em, tenantId, receiptId) : undefined;
  if (!claimed) return undefined;
  const { receipt } = claimed;
  // A rerun meets the stored review when it stores; the first run, the common case, asks nothing more.
  const decision = receipt.parseError
    ? {
        verdict: 'ABSTAIN' as const,
        reason: 'INSUFFICIENT_DATA' as const,
        checks: [{ check: 'PARSE', passed: false, detail: receipt.parseError }],
        ruleSetId: null,
        ruleEngineResult: null,
      }
    : decide(await loadReviewFacts(em, deps, claimed, new Date()));
  const eventId = await intrinsicEventId(deps, tenantId, RECEIPT_REVIEWED);
  const stored =
    (await storeOnUnreviewedClaim(em, receipt, decision, eventId)) ??
    (await storeUnderLock(deps, tenantId, receiptId, decision, eventId));
  if (stored) {
    deps.reviewsStored.inc({ verdict: stored.review.verdict, reviewer: 'automated' });
    await reportReview(deps, stored.receipt, stored.review);
    // A manual review that came first stays paramount: the caller reads that one.
    return stored.receipt.paramountReviewId === stored.review.id
      ? claimedView(stored.receipt, stored.review)
      : undefined;
  }
  // A rerun: its event is reported again; what the claim shows now is for the caller to read, as
  // a manual review may have come since the review was stored.
  const earlier = await storedAutomatedReview(deps, receipt);
  if (earlier) await reportReview(deps, earlier.receipt, earlier.review);
  return undefined;
}

type StoredReview = { receipt: Receipt; review: Review } | undefined;

/** The one-statement store, for a claim nobody had reviewed when it was read. */
async function storeOnUnreviewedClaim(
  em: EntityManager,
  receipt: Receipt,
  decision: AutomatedDecision,
  eventId: number | null,
): Promise<StoredReview> {
  if (receipt.paramountReviewId) return undefined;
  const review = em.create(Review, automatedReview(receipt.tenant.id, receipt, decision), { persist: false });
  review.createdAt = new Date();
  const next = {
    status: receipt.status,
    statusVersion: receipt.statusVersion,
    paramountReviewId: receipt.paramountReviewId,
    updatedAt: review.createdAt,
  };
  applyReview(next, review, eventId);
  const stored = await storeReviewOfUnreviewedClaim(em, {
    tenantId: receipt.tenant.id,
    receiptId: receipt.id,
    readStatusVersion: receipt.statusVersion,
    next,
    review,
  });
  if (!stored) return undefined;
  // As stored (jsonb orders an object's keys), so the answer shows what GET shows.
  Object.assign(review, stored);
  Object.assign(receipt, next);
  return { receipt, review };
}

/** Under the claim's row lock; a rerun's insert meets the partial unique index and stores nothing. */
async function storeUnderLock(
  deps: ReviewDependencies,
  tenantId: string,
  receiptId: string,
  decision: AutomatedDecision,
  eventId: number | null,
): Promise<StoredReview> {
  try {
    return await deps.orm.em.fork().transactional(async (tx) => {
      const locked = await lockReceipt(tx, tenantId, receiptId);
      if (!locked) return undefined;
      const review = tx.create(Review, automatedReview(tenantId, locked, decision));
      applyReview(locked, review, eventId);
      return { receipt: locked, review };
    });
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    return undefined;
  }
}

function automatedReview(tenantId: string, receipt: Receipt, decision: AutomatedDecision) {
  return {
    id: randomUUID(),
    tenant: tenantId,
    receipt,
    isAutomated: true,
    reviewer: null,
    comment: null,
    correctedTotal: null,
    eventId: null,
    statusVersion: null,
    ...decision,
  };
}

async function storedAutomatedReview(deps: ReviewDependencies, receipt: Receipt): Promise<StoredReview> {
  const review = await deps.orm.em
    .fork()
    .findOne(Review, { tenant: receipt.tenant.id, receipt: receipt.id, isAutomated: true });
  return review ? { receipt, review } : undefined;
}

/** The claim, locked for the transaction; its submitter is a reference, its id all reviews need. */
export async function lockReceipt(em: EntityManager, tenantId: string, receiptId: string): Promise<Receipt | null> {
  if (!isUuid(receiptId)) return null;
  return em.findOne(Receipt, { tenant: tenantId, id: receiptId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

/**
 * docs/receipts.md#manual-reviews: "A manual AUTHORIZE or REJECT becomes the paramount review and
 * sets the status; ABSTAIN changes nothing", and an automated ABSTAIN sends the claim to manual
 * review (it becomes the paramount review of a still PENDING claim). A status change raises the
 * claim's statusVersion and takes the id of the RECEIPT_REVIEWED event that reports it; a review
 * that changes no status (authorizing an authorized claim) reports nothing, so it grants nothing
 * twice. The event id is allocated beforehand, outside the transaction.
 */
export function applyReview(
  receipt: Pick<Receipt, 'status' | 'statusVersion' | 'paramountReviewId'>,
  review: Review,
  eventId: number | null,
): void {
  if (review.isAutomated && receipt.paramountReviewId) return;
  if (review.verdict === 'ABSTAIN') {
    if (review.isAutomated) receipt.paramountReviewId = review.id;
    return;
  }
  receipt.paramountReviewId = review.id;
  const status = review.verdict === 'AUTHORIZE' ? 'AUTHORIZED' : 'REJECTED';
  if (receipt.status === status) return;
  receipt.status = status;
  receipt.statusVersion += 1;
  review.statusVersion = receipt.statusVersion;
  review.eventId = eventId;
}

/**
 * RECEIPT_REVIEWED for a review that changed the status (payload:
 * docs/events.md#system-event-types; absent values omitted), queued again as often as asked: its id
 * is the review's event id. `total` is the receipt's as read; `correctedTotal`, a person's, is the
 * review's own or else the correction standing, and never stands in for `total`.
 */
export async function reportReview(
  deps: IntrinsicEventDependencies & { orm: Orm },
  receipt: Receipt,
  review: Review,
): Promise<void> {
  if (review.eventId === null || review.eventId === undefined) return;
  const automated = review.isAutomated
    ? review
    : await deps.orm.em.fork().findOne(Review, { tenant: receipt.tenant.id, receipt: receipt.id, isAutomated: true });
  const payload: Record<string, unknown> = {
    receiptId: receipt.id,
    status: review.verdict === 'AUTHORIZE' ? 'AUTHORIZED' : 'REJECTED',
    verdict: review.verdict,
    reason: review.reason,
    total: receipt.total,
    subtotal: receipt.subtotal,
    correctedTotal: review.correctedTotal ?? receipt.correctedTotal,
    currency: receipt.currency,
    merchantName: receipt.merchantName,
    merchantLegalName: receipt.merchantLegalName,
    serviceDate: receipt.serviceDate,
    servedAt: receipt.servedAt?.toISOString(),
    lineItems: receipt.lineItems,
    ruleEngineResult: automated?.ruleEngineResult,
  };
  await queueIntrinsicEvent(deps, {
    tenantId: receipt.tenant.id,
    typeName: RECEIPT_REVIEWED,
    eventId: review.eventId,
    userId: receipt.submitter.id,
    payload: withoutAbsent(payload),
    reportedAt: review.createdAt,
    occurredAt: null,
  });
}
