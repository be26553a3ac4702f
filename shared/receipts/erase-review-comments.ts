import type { EntityManager } from '../platform/db/orm.js';

/**
 * A member's erasure (docs/users.md#erasure) takes the comments on their receipts' reviews with it:
 * a reviewer's note may name them or hold their contact details. What was decided stays (verdict,
 * reason, reviewer, corrected total), as the receipts, events and ledger do.
 */
export async function eraseReviewCommentsOf(em: EntityManager, tenantId: string, submitterId: string): Promise<void> {
  await em.execute(
    `update receipt_review v set comment = null from receipt r
      where r.id = v.receipt_id and r.tenant_id = ? and r.submitter_id = ? and v.tenant_id = ? and v.comment is not null`,
    [tenantId, submitterId, tenantId],
  );
}
