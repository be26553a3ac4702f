import type { EntityManager } from '../../platform/db/orm.js';
import { Tenant } from '../../tenants/tenant.entity.js';
import { Venue } from '../../venues/venue.entity.js';
import { reviewSettings } from '../review-settings.js';
import type { ParseHints } from './parse/parse-receipt.js';

/**
 * The tenant's parse hints (docs/receipts.md#known-merchants): its `review.merchants` first, as the
 * INVALID_MERCHANT check compares the merchant with them, then its venues' names, each once. Read afresh
 * for each claim, two small queries against an OCR read of a second or more: a cache would need its
 * own forgetting whenever the settings or a venue change, for no time a claim would notice.
 */
export async function loadParseHints(em: EntityManager, tenantId: string): Promise<ParseHints> {
  const tenant = await em.findOne(Tenant, { id: tenantId }, { fields: ['configuration'] });
  const venues = await em.find(Venue, { tenant: tenantId }, { fields: ['name'], orderBy: { createdAt: 'asc' } });
  const names = [...(reviewSettings(tenant?.configuration).merchants ?? []), ...venues.map((venue) => venue.name)];
  const knownMerchants = [...new Set(names.map((name) => name.trim()).filter(Boolean))];
  return knownMerchants.length ? { knownMerchants } : {};
}
