import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import { NotFoundError } from '../platform/errors/app-errors.js';
import { User } from './user.entity.js';

/** A string identifier that may also be an account number. */
const ACCOUNT_NUMBER = /^\d{1,9}$/;

/**
 * A member by any of the identifiers docs/users.md#identifiers allows (the id, the
 * authIdentifier or the accountNumber), tried in that order within the tenant: a numeric
 * authIdentifier wins over the account number that happens to equal it.
 */
export async function lookupUser(
  em: EntityManager,
  tenantId: string,
  identifier: string | number,
): Promise<User | null> {
  return (await lookupUsers(em, tenantId, [identifier]))[0]!;
}

/**
 * Members by many identifiers of one tenant, each resolved as lookupUser resolves it, in one
 * query: every member any of the identifiers could name is read, and the order of precedence is
 * applied to them here. The hot path's member cache loads its misses this way (subject-directory.ts).
 */
export async function lookupUsers(
  em: EntityManager,
  tenantId: string,
  identifiers: (string | number)[],
): Promise<(User | null)[]> {
  const ids = new Set<string>();
  const authIdentifiers = new Set<string>();
  const accountNumbers = new Set<number>();
  for (const identifier of identifiers) {
    if (typeof identifier === 'number') {
      accountNumbers.add(identifier);
      continue;
    }
    if (isUuid(identifier)) ids.add(identifier);
    authIdentifiers.add(identifier);
    if (ACCOUNT_NUMBER.test(identifier)) accountNumbers.add(Number(identifier));
  }
  const forms = [
    ids.size > 0 ? { id: { $in: [...ids] } } : undefined,
    authIdentifiers.size > 0 ? { authIdentifier: { $in: [...authIdentifiers] } } : undefined,
    accountNumbers.size > 0 ? { accountNumber: { $in: [...accountNumbers] } } : undefined,
  ].filter((form) => form !== undefined);
  if (forms.length === 0) return identifiers.map(() => null);
  const members = await em.find(User, { tenant: tenantId, $or: forms });

  const byId = new Map(members.map((member) => [member.id, member]));
  const byAuthIdentifier = new Map(members.map((member) => [member.authIdentifier, member]));
  const byAccountNumber = new Map(members.map((member) => [member.accountNumber, member]));
  return identifiers.map((identifier) => {
    if (typeof identifier === 'number') return byAccountNumber.get(identifier) ?? null;
    return (
      byId.get(identifier) ??
      byAuthIdentifier.get(identifier) ??
      (ACCOUNT_NUMBER.test(identifier) ? byAccountNumber.get(Number(identifier)) : undefined) ??
      null
    );
  });
}

/** The member a `submitter: {authIdentifier}` names (orders, admin receipt claims), or 404. */
export async function submittingMember(em: EntityManager, tenantId: string, authIdentifier: string): Promise<User> {
  return (await em.findOne(User, { tenant: tenantId, authIdentifier })) ?? unknownSubmitter(authIdentifier);
}

export function unknownSubmitter(authIdentifier: string): never {
  throw new NotFoundError(`No member has the authIdentifier "${authIdentifier}"`);
}
