import type { EntityManager } from '../db/orm.js';
import { isUuid } from '../db/tenant-record.js';
import { NotFoundError } from '../errors/app-errors.js';
import { User } from './user.entity.js';

/**
 * A member by any of the identifiers the documents allow (rewards-interface.md: the id, the
 * authIdentifier or the accountNumber), tried in that order within the tenant: a numeric
 * authIdentifier wins over the account number that happens to equal it.
 */
export async function lookupUser(em: EntityManager, tenantId: string, identifier: string | number): Promise<User | null> {
  if (typeof identifier === 'number') return em.findOne(User, { tenant: tenantId, accountNumber: identifier });
  return (
    (isUuid(identifier) ? await em.findOne(User, { tenant: tenantId, id: identifier }) : null) ??
    (await em.findOne(User, { tenant: tenantId, authIdentifier: identifier })) ??
    (/^\d{1,9}$/.test(identifier) ? await em.findOne(User, { tenant: tenantId, accountNumber: Number(identifier) }) : null)
  );
}

/** The member a `submitter: {authIdentifier}` names (orders, admin receipt claims), or 404. */
export async function submittingMember(em: EntityManager, tenantId: string, authIdentifier: string): Promise<User> {
  return (await em.findOne(User, { tenant: tenantId, authIdentifier })) ?? unknownSubmitter(authIdentifier);
}

export function unknownSubmitter(authIdentifier: string): never {
  throw new NotFoundError(`No member has the authIdentifier "${authIdentifier}"`);
}
