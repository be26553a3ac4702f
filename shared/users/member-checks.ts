// What registration and a member's change both check and lock before they write (docs/users.md).
import { LockMode } from '@mikro-orm/core';
import type { ValidateFunction } from 'ajv';
import { lockNames } from '../platform/db/advisory-locks.js';
import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import {
  BadRequestError,
  ConflictError,
  fieldError,
  TenantConfigurationError,
  UserExistsError,
} from '../platform/errors/app-errors.js';
import { compile, toValidationIssues } from '../platform/validation/ajv.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { Venue } from '../venues/venue.entity.js';
import { Profile as ProfileSchema } from './profile.js';
import { User, type Profile } from './user.entity.js';

/** What the checks read of the tenant: its id, and its settings (`profileSchema`, `allowDuplicateContacts`). */
export type MemberRules = Pick<Tenant, 'id' | 'configuration'>;

/** The documented bounds of every profile, compiled once; a tenant's own schema comes on top (checkProfile). */
const validateProfile = compile<Profile>(ProfileSchema);

/**
 * What one member alone may hold in the tenant, and when a stored one is the same as `?`: its
 * `authIdentifier` (409 ConflictError when another member has it); its email address whatever its
 * case (Jo@Example.com is jo@example.com, as the lowered index expects) and its telephone number as
 * written (422 UserExistsError), unless the tenant allows duplicate contacts.
 */
const CLAIMS = {
  authIdentifier: {
    same: 'auth_identifier = ?',
    taken: (value: string) =>
      new ConflictError(`A member with the authIdentifier "${value}" already exists`, {
        data: {
          explanation:
            'authIdentifier must be unique within the tenant: log in as that member, or choose another authIdentifier',
        },
      }),
  },
  emailAddress: {
    same: `lower(profile->>'emailAddress') = lower(?)`,
    taken: () =>
      new UserExistsError('Another member already uses this email address', { data: { field: 'emailAddress' } }),
  },
  telephoneNumber: {
    same: `profile->>'telephoneNumber' = ?`,
    taken: () =>
      new UserExistsError('Another member already uses this telephone number', { data: { field: 'telephoneNumber' } }),
  },
} as const;

/** What a registration or a member's change claims: its authIdentifier, and the contacts its profile gives. */
export interface MemberClaims {
  authIdentifier?: string;
  profile?: Partial<Profile>;
}

/** The claims that only one member may hold, in the order they are checked. */
function claimsOf(tenant: MemberRules, claims: MemberClaims): { field: keyof typeof CLAIMS; value: string }[] {
  const held: { field: keyof typeof CLAIMS; value: string }[] = [];
  if (claims.authIdentifier !== undefined) held.push({ field: 'authIdentifier', value: claims.authIdentifier });
  if (tenant.configuration.allowDuplicateContacts !== true)
    for (const field of ['emailAddress', 'telephoneNumber'] as const) {
      const value = claims.profile?.[field];
      if (typeof value === 'string') held.push({ field, value });
    }
  return held;
}

/** `linkedVenues` name venues of the tenant (/v1/venues), not another tenant's or none at all. */
export async function checkLinkedVenues(em: EntityManager, tenantId: string, linked: { id: string }[]): Promise<void> {
  const ids = linked.map((venue) => venue.id);
  const known = ids.some(isUuid)
    ? await em.find(Venue, { tenant: tenantId, id: { $in: ids.filter(isUuid) } }, { fields: ['id'] })
    : [];
  const unknown = ids.filter((id) => !known.some((venue) => venue.id === id));
  if (unknown.length)
    throw fieldError('linkedVenues', unknown, 'exists', `No venue ${unknown.join(', ')} in this tenant`);
}

/**
 * Locks, until the transaction ends, what one member alone may hold in the tenant and this
 * registration or change claims: its `authIdentifier`, and its email address and telephone number
 * where the tenant refuses duplicates. Two claiming the same one take turns, so the second's check
 * sees the first's member; the tenant's other registrations and changes go on side by side.
 */
export async function lockMemberClaims(tx: EntityManager, tenant: MemberRules, claims: MemberClaims): Promise<void> {
  await lockNames(
    tx,
    claimsOf(tenant, claims).map(({ field, value }) => ({ scope: `member:${tenant.id}:${field}`, value })),
  );
}

/**
 * Locks the member's row for the rest of the transaction and reads it again: a change made from
 * what was read before the lock would write over a change committed meanwhile (a concurrent
 * PATCH's fields, or an erasure brought back).
 */
export async function lockAndReload(tx: EntityManager, user: User): Promise<void> {
  await tx.findOneOrFail(
    User,
    { tenant: user.tenant.id, id: user.id },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
}

/** The documented bounds, then the tenant's own `profileSchema`: 400 BadRequestError with data.errors. */
export function checkProfile(tenant: MemberRules, schemas: PayloadSchemaCompiler, profile: Profile): void {
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
 * Refuses, in one query, a claim another member of the tenant holds (`exceptUserId` being the
 * member changed): the first taken, in the order of CLAIMS. Run under lockMemberClaims, so no other
 * registration or change can take one between this check and the write.
 */
export async function checkClaimsFree(
  em: EntityManager,
  tenant: MemberRules,
  claims: MemberClaims,
  exceptUserId?: string,
): Promise<void> {
  const held = claimsOf(tenant, claims);
  if (held.length === 0) return;
  const [row] = await em.execute<Record<string, boolean>[]>(
    `select ${held
      .map(
        ({ field }) =>
          `exists (select 1 from member where tenant_id = ? and ${CLAIMS[field].same} and id is distinct from ?) as "${field}"`,
      )
      .join(', ')}`,
    held.flatMap(({ value }) => [tenant.id, value, exceptUserId ?? null]),
  );
  const taken = held.find(({ field }) => row?.[field]);
  if (taken) throw CLAIMS[taken.field].taken(taken.value);
}

function summary(errors: { constraints: Record<string, string> }[]): string {
  return errors.flatMap((error) => Object.values(error.constraints)).join('; ');
}

function prefixed<T extends { property: string }>(errors: T[]): T[] {
  return errors.map((error) => ({ ...error, property: `profile.${error.property}`.replace(/\.\(body\)$/, '') }));
}
