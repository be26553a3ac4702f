import type { EntityManager } from '../platform/db/orm.js';
import type { Receipt } from './receipt.entity.js';

/**
 * Whether the claim's submitter was erased, waiting for an erasure under way to end: the member's
 * row is read FOR SHARE, which the erasure's lock on it holds back (shared/members/erase-member.ts). What
 * the caller then writes in its transaction is seen by an erasure that comes after it.
 */
export async function submitterErased(tx: EntityManager, receipt: Receipt): Promise<boolean> {
  const [submitter] = await tx.execute<{ erased_at: Date | null }[]>(
    'select erased_at from member where tenant_id = ? and id = ? for share',
    [receipt.tenant.id, receipt.submitter.id],
  );
  return Boolean(submitter?.erased_at);
}
