import type { EntityManager } from '../platform/db/orm.js';
import { queryPrepared } from '../platform/db/prepared-statements.js';
import type { Receipt } from './receipt.entity.js';
import type { Review } from './review.entity.js';

/**
 * Exported for its plan's test. The claim is found by its primary key alone (`(…) is true` is a
 * condition no index serves), whatever the statistics: see READ_CLAIM_UNDER_REVIEW.
 */
export const STORE_UNREVIEWED_CLAIM_REVIEW = `with claim as (
   select id from receipt
    where id = ? and (tenant_id = ? and status_version = ? and paramount_review_id is null) is true
      for update
 ), stored as (
   insert into receipt_review (id, tenant_id, receipt_id, verdict, reason, is_automated, reviewer, comment, checks, rule_set_id, rule_engine_result, event_id, status_version, created_at)
   select ?, ?, claim.id, ?, ?, true, null, null, ?::jsonb, ?::uuid, ?::jsonb, ?::bigint, ?::int, ? from claim
   on conflict (receipt_id) where is_automated do nothing
   returning receipt_id, checks, rule_engine_result
 )
 update receipt set status = ?, status_version = ?, paramount_review_id = ?::uuid, updated_at = ?
   from stored where receipt.id = stored.receipt_id
 returning stored.checks as "checks", stored.rule_engine_result as "ruleEngineResult"`;

/** An automated review of a claim nobody had reviewed when the decision read it. */
export interface UnreviewedClaimReview {
  tenantId: string;
  receiptId: string;
  /** The claim's statusVersion as the decision read it. */
  readStatusVersion: number;
  /** The claim after the review (applyReview's result). */
  next: Pick<Receipt, 'status' | 'statusVersion' | 'paramountReviewId' | 'updatedAt'>;
  review: Review;
}

/**
 * Stores an automated review and the claim's new state in one prepared statement, one round trip, while
 * the claim is still unreviewed: no paramount review, the statusVersion it was read with, and no
 * automated review stored yet (the partial unique index). The statement locks the claim's row, so
 * a manual review waits for it or it for the manual review. Resolves to the review's JSON columns
 * as stored, or undefined when it stored nothing: the caller then takes the locking path, which
 * sees what changed. The reviewer's common case, a fresh claim, costs one statement instead of a
 * five-step transaction.
 */
export async function storeReviewOfUnreviewedClaim(
  em: EntityManager,
  change: UnreviewedClaimReview,
): Promise<Pick<Review, 'checks' | 'ruleEngineResult'> | undefined> {
  const { review, next } = change;
  const [row] = await queryPrepared<Pick<Review, 'checks' | 'ruleEngineResult'>>(
    em,
    'store-unreviewed-claim-review',
    STORE_UNREVIEWED_CLAIM_REVIEW,
    [
      change.receiptId,
      change.tenantId,
      change.readStatusVersion,
      review.id,
      change.tenantId,
      review.verdict,
      review.reason,
      JSON.stringify(review.checks),
      review.ruleSetId ?? null,
      review.ruleEngineResult ? JSON.stringify(review.ruleEngineResult) : null,
      review.eventId ?? null,
      review.statusVersion ?? null,
      review.createdAt,
      next.status,
      next.statusVersion,
      next.paramountReviewId ?? null,
      next.updatedAt,
    ],
  );
  return row;
}
