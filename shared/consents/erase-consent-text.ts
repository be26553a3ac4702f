import type { EntityManager } from '../platform/db/orm.js';

/**
 * A member's erasure (docs/consents.md#erasure) takes the consents' personal text with it: the
 * text shown and the locales the member read and asked for. What proves a consent was given stays:
 * the type, its version (whose text consent_type_version keeps), the answer and its time.
 */
export async function eraseConsentTextOf(em: EntityManager, tenantId: string, memberId: string): Promise<void> {
  await em.execute(
    `update member_consent set description = null, locale = null, requested_locale = null
      where tenant_id = ? and member_id = ?`,
    [tenantId, memberId],
  );
}
