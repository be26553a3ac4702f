import type { EntityManager } from '../platform/db/orm.js';

/**
 * A member's erasure (docs/users.md#erasure) takes the raw text read off their receipts with it:
 * it may hold a card's last digits or a name. The parsed receipts stay, as the events and the
 * ledger do, so nothing that refers to them breaks.
 */
export async function eraseOcrReadsOf(em: EntityManager, tenantId: string, submitterId: string): Promise<void> {
  await em.execute(
    `delete from receipt_ocr_read o using receipt r
      where r.id = o.receipt_id and r.tenant_id = ? and r.submitter_id = ? and o.tenant_id = ?`,
    [tenantId, submitterId, tenantId],
  );
}
