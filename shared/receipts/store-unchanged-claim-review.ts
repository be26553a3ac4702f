import type { EntityManager } from '../db/orm.js';
import type { Receipt } from './receipt.entity.js';
import type { Review } from './review.entity.js';

/** What a review store needs of the claim as it was read, and what the review made of it. */
export interface ClaimReviewChange {
  tenantId: string;
  receiptId: string;
  /** The claim as the decision read it: the store goes ahead only while it is still so. */
  read: Pick<Receipt, 'statusVersion' | 'paramountReviewId'>;
  /** The claim after the review (applyReview's result). */
  next: Pick<Receipt, 'status' | 'statusVersion' | 'paramountReviewId' | 'updatedAt'>;
  review: Review;
}

/**
 * Stores an automated review and the claim's new state in one statement, one round trip, while
 * the claim is as the decision read it: no review since (its statusVersion and paramount review
 * are unchanged) and no automated review stored yet (the partial unique index). The statement
 * locks the claim's row, so a manual review waits for it or it for the manual review. Returns
 * false when it stored nothing; the caller then takes the locking path, which sees what changed.
 * The reviewer's common case, a fresh claim, costs one statement instead of a five-step transaction.
 */
export async function storeReviewOfUnchangedClaim(em: EntityManager, change: ClaimReviewChange): Promise<boolean> {
  const { review, read, next } = change;
  const rows = await em.getConnection().execute<{ id: string }[]>(
    `with claim as (
       select id from receipt
        where id = ? and tenant_id = ? and status_version = ? and paramount_review_id is not distinct from ?::uuid
          for update
     ), stored as (
       insert into receipt_review (id, tenant_id, receipt_id, verdict, reason, is_automated, reviewer, comment, checks, rule_set_id, rule_engine_result, event_id, status_version, created_at)
       select ?, ?, claim.id, ?, ?, true, null, null, ?::jsonb, ?::uuid, ?::jsonb, ?::bigint, ?::int, ? from claim
       on conflict (receipt_id) where is_automated do nothing
       returning receipt_id
     )
     update receipt set status = ?, status_version = ?, paramount_review_id = ?::uuid, updated_at = ?
       from stored where receipt.id = stored.receipt_id
     returning receipt.id`,
    [
      change.receiptId,
      change.tenantId,
      read.statusVersion,
      read.paramountReviewId ?? null,
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
  return rows.length === 1;
}
