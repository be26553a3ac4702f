import { randomUUID } from 'node:crypto';
import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import { RECEIPT_REVIEWED } from '../kernel/system-event-names.js';
import { intrinsicEventId } from '../events/queue-intrinsic-event.js';
import { storedAmount } from '../platform/db/stored-amount.js';
import { fieldBadRequestError, NotFoundError } from '../platform/errors/app-errors.js';
import type { Receipt } from './receipt.entity.js';
import { Review, type Reviewer } from './review.entity.js';
import type { ReviewReason, ReviewVerdict } from '../rules/review-enums.js';
import { applyReview, lockReceipt, reportReview, type ReviewDependencies } from './review-service.js';
import { submitterErased } from './submitter-erased.js';

export interface ManualReviewInput {
  verdict: ReviewVerdict;
  reason: ReviewReason;
  comment?: string;
  correctedTotal?: number;
}

/**
 * POST /receipts/{id}/reviews: an admin's review, applied under the claim's lock and audited as
 * `receipt.reviewed` with the claim's status and corrected total before and after (the comment,
 * which may name the member, stays in the review, which erasure reaches: erase-review-comments.ts).
 */
export async function reviewManually(
  deps: ReviewDependencies,
  by: ChangedBy,
  receiptId: string,
  reviewer: Reviewer,
  input: ManualReviewInput,
  id: string = randomUUID(),
): Promise<Review> {
  const { tenantId } = by;
  // Taken before the transaction, for the reason reviewAutomatically gives; unused ids are gaps, never reused.
  const eventId = await intrinsicEventId(deps, tenantId, RECEIPT_REVIEWED);
  const { receipt, review } = await auditedResourceChange(
    deps,
    deps.orm.em.fork(),
    by,
    { resourceType: 'receipt' },
    async (em) => {
      const locked = await lockReceipt(em, tenantId, receiptId);
      if (!locked) throw new NotFoundError(`No receipt "${receiptId}"`);
      if (input.comment !== undefined && (await submitterErased(em, locked))) throw commentOnErasedMember(receiptId);
      const before = { status: locked.status, correctedTotal: locked.correctedTotal ?? null };
      const created = em.create(Review, {
        id,
        tenant: tenantId,
        receipt: locked,
        verdict: input.verdict,
        reason: input.reason,
        isAutomated: false,
        reviewer,
        comment: input.comment ?? null,
        // As its column keeps it: the answer, the audit and RECEIPT_REVIEWED carry what is read back later.
        correctedTotal: input.correctedTotal === undefined ? null : storedAmount(input.correctedTotal),
        checks: [],
        ruleSetId: null,
        ruleEngineResult: null,
        eventId: null,
        statusVersion: null,
      });
      applyReview(locked, created, eventId);
      applyCorrection(locked, created);
      const after = {
        status: locked.status,
        correctedTotal: locked.correctedTotal ?? null,
        reviewId: id,
        verdict: input.verdict,
        reason: input.reason,
      };
      return {
        result: { receipt: locked, review: created },
        resourceId: locked.id,
        action: 'receipt.reviewed',
        before,
        after,
      };
    },
  );
  deps.reviewsStored.inc({ verdict: review.verdict, reviewer: 'manual' });
  await reportReview(deps, receipt, review);
  return review;
}

/**
 * A member's erasure takes the comments on their receipts' reviews (docs/users.md#erasure); one
 * written after it would bring personal data back. The member's row is read under a share lock, so
 * a review and an erasure under way take turns: whichever commits second sees the other.
 */
function commentOnErasedMember(receiptId: string) {
  return fieldBadRequestError(
    'comment',
    undefined,
    'erased',
    `The member who claimed receipt "${receiptId}" was erased: a review of it takes no comment, which could name them again`,
  );
}

/**
 * decisions §14: the receipt shows the correctedTotal of the review that decides it, from then on.
 * A review without one leaves an earlier correction standing; an ABSTAIN "changes nothing"
 * (decisions §9), so its total is only kept on the review, for the person who decides.
 */
function applyCorrection(receipt: Receipt, review: Review): void {
  if (review.verdict === 'ABSTAIN' || review.correctedTotal === null || review.correctedTotal === undefined) return;
  receipt.correctedTotal = review.correctedTotal;
}
