import type { EntityManager } from '../db/orm.js';
import { User } from './user.entity.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A member by any of the identifiers the documents allow (rewards-interface.md: the id, the
 * authIdentifier or the accountNumber), tried in that order within the tenant: a numeric
 * authIdentifier wins over the account number that happens to equal it.
 */
export async function lookupUser(em: EntityManager, tenantId: string, identifier: string | number): Promise<User | null> {
  if (typeof identifier === 'number') return em.findOne(User, { tenant: tenantId, accountNumber: identifier });
  return (
    (UUID.test(identifier) ? await em.findOne(User, { tenant: tenantId, id: identifier }) : null) ??
    (await em.findOne(User, { tenant: tenantId, authIdentifier: identifier })) ??
    (/^\d{1,9}$/.test(identifier) ? await em.findOne(User, { tenant: tenantId, accountNumber: Number(identifier) }) : null)
  );
}
