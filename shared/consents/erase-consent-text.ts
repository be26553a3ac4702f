import type { EntityManager } from '../platform/db/orm.js';

/**
 * A member's erasure (docs/consents.md#erasure) takes the consents' personal text with it: the
 * member's copy of the text and the locale the member asked for. What proves a consent was given
 * stays: the type, its version and the locale of its text (which find the exact words in
 * consent_type_version; a type's locale says nothing of the member), the answer and its time.
 */
export async function eraseConsentTextOf(em: EntityManager, tenantId: string, memberId: string): Promise<void> {
  await em.execute(
    `update member_consent set description = null, requested_locale = null
      where tenant_id = ? and member_id = ?`,
    [tenantId, memberId],
  );
}
