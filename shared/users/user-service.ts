import { LockMode } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../platform/auth/principal.js';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import type { ValidateFunction } from 'ajv';
import {
  BadRequestError,
  ConflictError,
  fieldError,
  NotFoundError,
  TenantConfigurationError,
  UserExistsError,
} from '../platform/errors/app-errors.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import type { SubjectDirectory } from './subject-directory.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { Venue } from '../venues/venue.entity.js';
import { eraseOcrReadsOf } from '../receipts/erase-ocr-reads.js';
import { eraseReviewCommentsOf } from '../receipts/erase-review-comments.js';
import { eraseReferralDetailsOf } from '../referrals/erase-referral-details.js';
import {
  prepareReferredRegistration,
  type ReferralDependencies,
  type ReferredRegistrationInput,
} from '../referrals/referred-registration.js';
import { eraseConsentTextOf } from '../consents/erase-consent-text.js';
import { recordRegistrationConsents, type RegistrationConsents } from '../consents/member-consents.js';
import { compile, toValidationIssues } from '../platform/validation/ajv.js';
import { lookupReferencedUser, lookupUser } from './lookup-user.js';
import {
  memberAuditAfter,
  memberAuditView,
  memberUpdateAction,
  NO_PERSONAL_DATA,
  personalDataOf,
} from './member-audit.js';
import { memberFingerprint, type FingerprintKey } from './member-fingerprint.js';
import { Profile as ProfileSchema } from './profile.js';
import { User, type Profile } from './user.entity.js';

const validateProfile = compile<Profile>(ProfileSchema);

export interface Registration extends RegistrationConsents, ReferredRegistrationInput {
  authIdentifier?: string;
  externalIdentifier?: string;
  isRestricted: boolean;
  profile: Profile;
  linkedVenues?: { id: string }[];
}

export interface UserChanges {
  isRestricted?: boolean;
  externalIdentifier?: string | null;
  linkedVenues?: { id: string }[];
  profile?: Profile;
  flags?: Record<string, unknown>;
}

/**
 * Registers a member (docs/users.md#registration): a user token registers its own `sub`; an admin
 * may register anyone and an absent authIdentifier is generated. The tenant row is locked to take
 * the next account number, which also serialises the tenant's registrations, so the duplicate
 * contact check cannot race with another registration. The member's consents
 * (docs/consents.md#registration) and, with an invite code, its referral are recorded in the same
 * transaction; the referral's events are reported after the commit
 * (docs/referrals.md#referred-registrations).
 */
export async function registerUser(
  deps: MemberChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  principal: Principal,
  input: Registration,
  id: string = randomUUID(),
): Promise<User> {
  const authIdentifier = chooseAuthIdentifier(principal, input.authIdentifier);
  const referral = await prepareReferredRegistration(deps, by.tenantId, input);
  const registered = await auditedResourceChange(deps, em, by, MEMBER, async (tx) => {
    const tenant = await lockTenant(tx, by.tenantId);
    checkProfile(tenant, deps.payloadSchemas, input.profile);
    if (await tx.count(User, { tenant: by.tenantId, authIdentifier })) {
      throw new ConflictError(`A member with the authIdentifier "${authIdentifier}" already exists`, {
        data: {
          explanation:
            'authIdentifier must be unique within the tenant: log in as that member, or choose another authIdentifier',
        },
      });
    }
    await checkContactsFree(tx, tenant, input.profile);
    await checkLinkedVenues(tx, by.tenantId, input.linkedVenues ?? []);
    const user = tx.create(User, {
      id,
      tenant: by.tenantId,
      accountNumber: tenant.nextAccountNumber,
      authIdentifier,
      externalIdentifier: input.externalIdentifier ?? null,
      isRestricted: input.isRestricted,
      profile: input.profile,
      flags: input.profile.gender ? { genderProvided: input.profile.gender !== 'UNKNOWN' } : null,
      linkedVenues: input.linkedVenues ?? [],
      fingerprint: memberFingerprint(deps.fingerprintKey, by.tenantId, id),
      erasedAt: null,
    });
    tenant.nextAccountNumber += 1;
    await tx.flush();
    await recordRegistrationConsents(tx, user, input);
    await referral.record(tx, user);
    return { result: user, resourceId: id, before: null, after: memberAuditAfter(user, NO_PERSONAL_DATA) };
  });
  await referral.report();
  return registered;
}

/** `linkedVenues` name venues of the tenant (/v1/venues), not another tenant's or none at all. */
async function checkLinkedVenues(em: EntityManager, tenantId: string, linked: { id: string }[]): Promise<void> {
  const ids = linked.map((venue) => venue.id);
  const known = ids.some(isUuid)
    ? await em.find(Venue, { tenant: tenantId, id: { $in: ids.filter(isUuid) } }, { fields: ['id'] })
    : [];
  const unknown = ids.filter((id) => !known.some((venue) => venue.id === id));
  if (unknown.length)
    throw fieldError('linkedVenues', unknown, 'exists', `No venue ${unknown.join(', ')} in this tenant`);
}

function chooseAuthIdentifier(principal: Principal, requested: string | undefined): string {
  if (principal.kind === 'user') {
    if (requested !== undefined && requested !== principal.authIdentifier) {
      throw new BadRequestError(
        "A user token registers its own subject: authIdentifier must equal the token's sub, or be left out",
      );
    }
    return principal.authIdentifier;
  }
  return requested ?? randomUUID();
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
 * cache, the key of members' fingerprints, and the events a referred registration reports.
 */
export interface MemberChangeDependencies extends AuditDependencies, ReferralDependencies {
  payloadSchemas: PayloadSchemaCompiler;
  subjects: MemberCache;
  fingerprintKey: FingerprintKey;
}

/** Audited without personal data (member-audit.ts); the member cache is keyed by subject, so each service forgets the member itself. */
const MEMBER = { resourceType: 'user' };

/**
 * PATCH: `profile` merges member by member; `attributes`, `flags` and `linkedVenues` are replaced
 * whole (docs/users.md#changes). Like registration, it locks the tenant row, so a registration or
 * another PATCH cannot take the same email or telephone between the check and the write.
 */
export async function updateUser(
  deps: MemberChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  user: User,
  changes: UserChanges,
): Promise<User> {
  await auditedResourceChange(deps, em, by, MEMBER, async (tx) => {
    const tenant = await lockTenant(tx, user.tenant.id);
    await lockAndReload(tx, user);
    const before = memberAuditView(user);
    const personal = personalDataOf(user);
    if (changes.profile) {
      const profile = { ...user.profile, ...changes.profile };
      checkProfile(tenant, deps.payloadSchemas, profile);
      await checkContactsFree(tx, tenant, changes.profile, user.id);
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

/**
 * DELETE erases the profile only; ids, account number, events and ledger stay
 * (docs/users.md#erasure). The flags go with it (they tell what the profile held), as does the
 * fingerprint (decisions §14), and so do the raw text read off the member's receipts, whose parsed
 * fields stay (erase-ocr-reads.ts), and the comments on their reviews (erase-review-comments.ts);
 * externalIdentifier is identifier data, which stays, so nothing that refers to the member breaks.
 */
export async function eraseUser(
  deps: MemberChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  user: User,
): Promise<number> {
  await auditedResourceChange(deps, em, by, MEMBER, async (tx) => {
    await lockAndReload(tx, user);
    const before = memberAuditView(user);
    const personal = personalDataOf(user);
    user.profile = {};
    user.flags = null;
    user.fingerprint = null;
    user.erasedAt = new Date();
    await tx.flush();
    await eraseOcrReadsOf(tx, user.tenant.id, user.id);
    await eraseReviewCommentsOf(tx, user.tenant.id, user.id);
    await eraseConsentTextOf(tx, user.tenant.id, user.id);
    await eraseReferralDetailsOf(tx, user.tenant.id, user.id);
    return {
      result: undefined,
      resourceId: user.id,
      action: 'user.erased',
      before,
      after: memberAuditAfter(user, personal),
    };
  });
  deps.subjects.forget(user);
  return 1;
}

/**
 * The tenant's row, locked for the rest of the transaction, so that its registrations and member
 * changes take turns (the next account number, the duplicate contact check). FOR NO KEY UPDATE,
 * not FOR UPDATE: a row that references the tenant, such as the audit entry every admin change
 * stages (audit-log.ts), takes a KEY SHARE lock on it, which FOR UPDATE blocks; an erasure holding
 * its member's row would wait for a PATCH holding the tenant's, which waits for the member: a deadlock.
 */
async function lockTenant(tx: EntityManager, tenantId: string): Promise<Tenant> {
  await tx.execute('select 1 from tenant where id = ? for no key update', [tenantId]);
  return tx.findOneOrFail(Tenant, { id: tenantId }, { refresh: true });
}

/**
 * Locks the member's row for the rest of the transaction and reads it again: a change made from
 * what was read before the lock would write over a change committed meanwhile (a concurrent
 * PATCH's fields, or an erasure brought back).
 */
async function lockAndReload(tx: EntityManager, user: User): Promise<void> {
  await tx.findOneOrFail(
    User,
    { tenant: user.tenant.id, id: user.id },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
}

/** The documented bounds, then the tenant's own `profileSchema`: 400 BadRequestError with data.errors. */
function checkProfile(tenant: Tenant, schemas: PayloadSchemaCompiler, profile: Profile): void {
  if (!validateProfile(profile)) {
    const errors = toValidationIssues(validateProfile.errors, profile);
    throw new BadRequestError(`Invalid profile: ${summary(errors)}`, { data: { errors: prefixed(errors) } });
  }
  const tenantSchema = tenant.configuration.profileSchema;
  if (tenantSchema && typeof tenantSchema === 'object') {
    const validate = tenantProfileSchema(schemas, tenantSchema as Record<string, unknown>);
    if (!validate(profile)) {
      const errors = toValidationIssues(validate.errors, profile);
      throw new BadRequestError(`The profile does not meet the tenant's profile schema: ${summary(errors)}`, {
        data: { errors: prefixed(errors) },
      });
    }
  }
}

/**
 * The tenant's profileSchema, which compiled when the tenant set it; one that no longer does (a
 * pattern only a backtracking engine runs) is the tenant's to change, not the member's fault.
 */
function tenantProfileSchema(schemas: PayloadSchemaCompiler, schema: Record<string, unknown>): ValidateFunction {
  try {
    return schemas.compile(schema);
  } catch (error) {
    throw new TenantConfigurationError(
      `The tenant's profileSchema cannot be run (${(error as Error).message}): an admin of the tenant must change it`,
    );
  }
}

/**
 * The contacts one member alone may use, and when a stored one is the same as `?`: an email
 * address whatever its case (Jo@Example.com is jo@example.com, as the lowered index expects), a
 * telephone number as written.
 */
const CONTACTS = {
  emailAddress: { same: `lower(profile->>'emailAddress') = lower(?)`, noun: 'email address' },
  telephoneNumber: { same: `profile->>'telephoneNumber' = ?`, noun: 'telephone number' },
} as const;

/** With `allowDuplicateContacts` off (the default), an email or telephone belongs to one member. */
async function checkContactsFree(
  em: EntityManager,
  tenant: Tenant,
  profile: Partial<Profile>,
  exceptUserId?: string,
): Promise<void> {
  if (tenant.configuration.allowDuplicateContacts === true) return;
  for (const field of ['emailAddress', 'telephoneNumber'] as const) {
    const { same, noun } = CONTACTS[field];
    const value = profile[field];
    if (typeof value !== 'string') continue;
    const [row] = await em.execute<{ taken: boolean }[]>(
      `select exists (select 1 from member where tenant_id = ? and ${same} and id is distinct from ?) as taken`,
      [tenant.id, value, exceptUserId ?? null],
    );
    if (row?.taken) throw new UserExistsError(`Another member already uses this ${noun}`, { data: { field } });
  }
}

function summary(errors: { constraints: Record<string, string> }[]): string {
  return errors.flatMap((error) => Object.values(error.constraints)).join('; ');
}

function prefixed<T extends { property: string }>(errors: T[]): T[] {
  return errors.map((error) => ({ ...error, property: `profile.${error.property}`.replace(/\.\(body\)$/, '') }));
}
