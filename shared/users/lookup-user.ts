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

/**
 * A member named by exactly one of its identifiers, saying which (docs/users.md#identifiers): its
 * id (its wallet's id), its authIdentifier or its account number.
 */
export type MemberReference = { id: string } | { authIdentifier: string } | { accountNumber: number };

/**
 * The member a reference names within the tenant, or null: by that identifier alone, so an
 * authIdentifier that looks like another member's id or account number still names its own member.
 */
export async function lookupReferencedUser(
  em: EntityManager,
  tenantId: string,
  reference: MemberReference,
): Promise<User | null> {
  if ('id' in reference) return isUuid(reference.id) ? em.findOne(User, { tenant: tenantId, id: reference.id }) : null;
  if ('authIdentifier' in reference)
    return em.findOne(User, { tenant: tenantId, authIdentifier: reference.authIdentifier });
  return em.findOne(User, { tenant: tenantId, accountNumber: reference.accountNumber });
}

/** Whether the reference names this member: an order's stored submitter against a submission's. */
export function referencesMember(reference: MemberReference, member: User): boolean {
  if ('id' in reference) return reference.id.toLowerCase() === member.id;
  if ('authIdentifier' in reference) return reference.authIdentifier === member.authIdentifier;
  return reference.accountNumber === member.accountNumber;
}

/** The member a reference names, or 404 naming what named nobody. */
export async function findReferencedUser(
  em: EntityManager,
  tenantId: string,
  reference: MemberReference,
): Promise<User> {
  return (await lookupReferencedUser(em, tenantId, reference)) ?? unknownMember(reference);
}

export function unknownMember(reference: MemberReference): never {
  const [field, value] = Object.entries(reference)[0] as [string, string | number];
  throw new NotFoundError(`No member has the ${field} "${value}"`);
}
