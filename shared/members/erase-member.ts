import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import { eraseConsentTextOf } from '../consents/erase-consent-text.js';
import type { EntityManager } from '../platform/db/orm.js';
import { eraseOcrReadsOf } from '../receipts/erase-ocr-reads.js';
import { eraseReviewCommentsOf } from '../receipts/erase-review-comments.js';
import { eraseReferralDetailsOf } from '../referrals/erase-referral-details.js';
import { memberAuditAfter, memberAuditView, personalDataOf } from '../users/member-audit.js';
import { lockAndReload } from '../users/member-checks.js';
import type { User } from '../users/user.entity.js';
import { MEMBER, type MemberChangeDependencies } from '../users/user-service.js';

/** What a feature keeps of a member that erasure takes: run in the erasure's transaction. */
type MemberEraser = (tx: EntityManager, tenantId: string, userId: string) => Promise<void>;

/**
 * Each feature's eraser: the raw text read off the member's receipts, whose parsed fields stay
 * (erase-ocr-reads.ts), the comments on their reviews (erase-review-comments.ts), the text of the
 * consents they gave and the details of their referral. A feature that keeps personal data adds its own here.
 */
const MEMBER_ERASERS: MemberEraser[] = [
  eraseOcrReadsOf,
  eraseReviewCommentsOf,
  eraseConsentTextOf,
  eraseReferralDetailsOf,
];

/**
 * DELETE erases the profile only; ids, account number, events and ledger stay
 * (docs/users.md#erasure). The flags go with it (they tell what the profile held), as does the
 * fingerprint (decisions §14), and so does what each feature keeps of them (MEMBER_ERASERS);
 * externalIdentifier is identifier data, which stays, so nothing that refers to the member breaks.
 */
export async function eraseUser(
  deps: MemberChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  user: User,
): Promise<number> {
  await auditedResourceChange(deps, em, by, MEMBER, async (tx) => {
    await lockAndReload(tx, user);
    const before = memberAuditView(user);
    const personal = personalDataOf(user);
    user.profile = {};
    user.flags = null;
    user.fingerprint = null;
    user.erasedAt = new Date();
    await tx.flush();
    // One after another: they share the transaction's connection.
    for (const erase of MEMBER_ERASERS) await erase(tx, user.tenant.id, user.id);
    return {
      result: undefined,
      resourceId: user.id,
      action: 'user.erased',
      before,
      after: memberAuditAfter(user, personal),
    };
  });
  deps.subjects.forget(user);
  return 1;
}
