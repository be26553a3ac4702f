import type { EntityManager } from '../platform/db/orm.js';
import { NotFoundError } from '../platform/errors/app-errors.js';
import { findConsentType } from './consent-type-service.js';
import { ConsentTypeVersion } from './consent-type.entity.js';

/**
 * The text a consent type had at one version (docs/consents.md#versions): what a member who
 * answered that version was shown, in the consent's `locale`, even after the member is erased.
 */
export function consentTypeVersionView(version: ConsentTypeVersion) {
  return {
    version: version.version,
    defaultLocale: version.defaultLocale,
    descriptions: version.descriptions,
    createdAt: version.createdAt.toISOString(),
  };
}

/** One version of the tenant's consent type; an unknown type or version is 404. */
export async function findConsentTypeVersion(
  em: EntityManager,
  tenantId: string,
  id: string,
  version: number,
): Promise<ConsentTypeVersion> {
  const type = await findConsentType(em, tenantId, id);
  const found = await em.findOne(ConsentTypeVersion, { tenant: tenantId, consentType: type.id, version });
  if (!found) throw new NotFoundError(`The consent type "${type.id}" has no version "${version}"`);
  return found;
}
