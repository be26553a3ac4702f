import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { NotFoundError } from '../platform/errors/app-errors.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import { lookupReferencedUser, lookupUser } from './lookup-user.js';
import { memberAuditAfter, memberAuditView, memberUpdateAction, personalDataOf } from './member-audit.js';
import { checkClaimsFree, checkLinkedVenues, checkProfile, lockAndReload, lockMemberClaims } from './member-checks.js';
import type { FingerprintKey } from './member-fingerprint.js';
import type { SubjectDirectory } from './subject-directory.js';
import type { Profile, User } from './user.entity.js';

export interface UserChanges {
  isRestricted?: boolean;
  externalIdentifier?: string | null;
  linkedVenues?: { id: string }[];
  profile?: Profile;
  flags?: Record<string, unknown>;
}

/** `{id}` is the member's id, authIdentifier or account number (docs/users.md#identifiers). */
export async function findUser(em: EntityManager, tenantId: string, identifier: string): Promise<User> {
  const user = await lookupUser(em, tenantId, identifier);
  if (!user) throw new NotFoundError(`No member "${identifier}"`);
  return user;
}

/** The member a user token speaks for; docs/api-conventions.md#authentication says how to answer when there is none. */
export async function findTokenUser(em: EntityManager, tenantId: string, authIdentifier: string): Promise<User> {
  const user = await lookupReferencedUser(em, tenantId, { authIdentifier });
  if (!user) throw new NotFoundError('No member is registered for this token: register with POST /v1/users');
  return user;
}

/** The member cache, which a change or an erasure makes stale for the member's subjects. */
type MemberCache = Pick<SubjectDirectory, 'forget'>;

/**
 * Member changes: the audit log (an admin's changes only), the tenant's profile schema, the member
 * cache, the key of members' fingerprints.
 */
export interface MemberChangeDependencies extends AuditDependencies {
  payloadSchemas: PayloadSchemaCompiler;
  subjects: MemberCache;
  fingerprintKey: FingerprintKey;
}

/** Audited without personal data (member-audit.ts); the member cache is keyed by subject, so each service forgets the member itself. */
export const MEMBER = { resourceType: 'user' };

/**
 * PATCH: `profile` merges member by member; `attributes`, `flags` and `linkedVenues` are replaced
 * whole (docs/users.md#changes). Like registration, it locks the contacts it gives by name
 * (lockMemberClaims), so a registration or another PATCH cannot take the same email or telephone
 * between the check and the write.
 */
export async function updateUser(
  deps: MemberChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  user: User,
  changes: UserChanges,
): Promise<User> {
  await auditedResourceChange(deps, em, by, MEMBER, async (tx) => {
    const tenant = await tx.findOneOrFail(Tenant, { id: user.tenant.id }, { refresh: true });
    await lockMemberClaims(tx, tenant, { profile: changes.profile });
    await lockAndReload(tx, user);
    const before = memberAuditView(user);
    const personal = personalDataOf(user);
    if (changes.profile) {
      const profile = { ...user.profile, ...changes.profile };
      checkProfile(tenant, deps.payloadSchemas, profile);
      await checkClaimsFree(tx, tenant, { profile: changes.profile }, user.id);
      user.profile = profile;
    }
    if (changes.flags !== undefined) user.flags = changes.flags;
    if (changes.isRestricted !== undefined) user.isRestricted = changes.isRestricted;
    if (changes.externalIdentifier !== undefined) user.externalIdentifier = changes.externalIdentifier;
    if (changes.linkedVenues !== undefined) {
      await checkLinkedVenues(tx, user.tenant.id, changes.linkedVenues);
      user.linkedVenues = changes.linkedVenues;
    }
    await tx.flush();
    const action = memberUpdateAction(before.isRestricted, user);
    return { result: user, resourceId: user.id, action, before, after: memberAuditAfter(user, personal) };
  });
  deps.subjects.forget(user);
  return user;
}
