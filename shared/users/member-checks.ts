// What registration and a member's change both check and lock before they write (docs/users.md).
import { LockMode } from '@mikro-orm/core';
import type { ValidateFunction } from 'ajv';
import { lockNames } from '../platform/db/advisory-locks.js';
import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import {
  BadRequestError,
  fieldError,
  TenantConfigurationError,
  UserExistsError,
} from '../platform/errors/app-errors.js';
import { compile, toValidationIssues } from '../platform/validation/ajv.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { Venue } from '../venues/venue.entity.js';
import { Profile as ProfileSchema } from './profile.js';
import { User, type Profile } from './user.entity.js';

/** The documented bounds of every profile, compiled once; a tenant's own schema comes on top (checkProfile). */
const validateProfile = compile<Profile>(ProfileSchema);

/**
 * The contacts one member alone may use, and when a stored one is the same as `?`: an email
 * address whatever its case (Jo@Example.com is jo@example.com, as the lowered index expects), a
 * telephone number as written.
 */
const CONTACTS = {
  emailAddress: { same: `lower(profile->>'emailAddress') = lower(?)`, noun: 'email address' },
  telephoneNumber: { same: `profile->>'telephoneNumber' = ?`, noun: 'telephone number' },
} as const;
const CONTACT_FIELDS = ['emailAddress', 'telephoneNumber'] as const;

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
export async function lockMemberClaims(
  tx: EntityManager,
  tenant: Tenant,
  claims: { authIdentifier?: string; profile?: Partial<Profile> },
): Promise<void> {
  const names: string[] = [];
  if (claims.authIdentifier !== undefined) names.push(`member:${tenant.id}:authIdentifier:${claims.authIdentifier}`);
  if (tenant.configuration.allowDuplicateContacts !== true)
    for (const field of CONTACT_FIELDS) {
      const value = claims.profile?.[field];
      if (typeof value === 'string') names.push(`member:${tenant.id}:${field}:${value}`);
    }
  await lockNames(tx, names);
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
export function checkProfile(tenant: Tenant, schemas: PayloadSchemaCompiler, profile: Profile): void {
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

/** With `allowDuplicateContacts` off (the default), an email or telephone belongs to one member. */
export async function checkContactsFree(
  em: EntityManager,
  tenant: Tenant,
  profile: Partial<Profile>,
  exceptUserId?: string,
): Promise<void> {
  if (tenant.configuration.allowDuplicateContacts === true) return;
  for (const field of CONTACT_FIELDS) {
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
