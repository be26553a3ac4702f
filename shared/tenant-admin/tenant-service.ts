import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import { ConflictError, fieldError } from '../platform/errors/app-errors.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import { createSystemEventTypes } from '../event-types/system-event-types.js';
import { issueApiKey } from '../tenants/api-key.js';
import type { TenantAuthentication } from '../platform/auth/user-token.js';
import { Tenant, type TenantConfiguration } from '../tenants/tenant.entity.js';
import { checkAuthentication, checkConfiguration } from '../tenants/check-settings.js';
import { findTenant, findTenantBySlug, type TenantSelector } from '../tenants/tenant-lookup.js';
import { tenantView, type TenantView } from '../tenants/tenant-view.js';
import { createAccountNumberSequence } from '../tenants/account-numbers.js';

export interface NewTenant {
  name: string;
  slug: string;
  authentication?: TenantAuthentication | null;
  configuration?: TenantConfiguration;
}

/**
 * A change of a tenant's settings (docs/tenant.md#changing-settings): `authentication` replaces the
 * whole setting (null: no end-user tokens); `configuration` is merged key by key, a key set to null
 * is removed.
 */
export interface TenantChanges {
  name?: string;
  authentication?: unknown;
  configuration?: Record<string, unknown>;
}

export interface TenantChange {
  before: TenantView;
  after: TenantView;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Creates a tenant with its system event types in one transaction; the key is returned this once.
 * Its authentication and configuration meet the same checks as a change (tenants/check-settings.ts).
 */
export async function createTenant(
  em: EntityManager,
  payloadSchemas: PayloadSchemaCompiler,
  input: NewTenant,
  allowPrivateAddresses = false,
): Promise<TenantView & { key: string }> {
  const name = checkName(input.name);
  if (!SLUG.test(input.slug)) {
    throw fieldError(
      'slug',
      input.slug,
      'pattern',
      'slug must be lower-case letters and digits, words joined by single hyphens',
    );
  }
  const authentication = input.authentication ? checkAuthentication(input.authentication) : null;
  const configuration = checkConfiguration(payloadSchemas, input.configuration ?? {}, allowPrivateAddresses);
  const apiKey = issueApiKey();
  return em.transactional(async (tx) => {
    if (await tx.count(Tenant, { slug: input.slug }))
      throw new ConflictError(`A tenant with slug "${input.slug}" already exists`);
    const tenant = tx.create(Tenant, {
      id: randomUUID(),
      name,
      slug: input.slug,
      apiKeyPrefix: apiKey.prefix,
      apiKeyHash: apiKey.hash,
      authentication,
      configuration,
      disabledAt: null,
    });
    createSystemEventTypes(tx, tenant.id);
    await tx.flush();
    await createAccountNumberSequence(tx, tenant.id);
    return { ...tenantView(tenant), key: apiKey.key };
  });
}

/**
 * Changes a tenant's name, authentication or configuration. Runs in the caller's transaction with
 * the row locked, so two changes of different configuration keys made at once both stay.
 */
export async function updateTenant(
  em: EntityManager,
  payloadSchemas: PayloadSchemaCompiler,
  selector: TenantSelector,
  changes: TenantChanges,
  allowPrivateAddresses = false,
): Promise<TenantChange> {
  const name = changes.name === undefined ? undefined : checkName(changes.name);
  const authentication =
    changes.authentication === undefined
      ? undefined
      : changes.authentication === null
        ? null
        : checkAuthentication(changes.authentication);
  const configuration = changes.configuration;
  const setting = configuration
    ? Object.fromEntries(Object.entries(configuration).filter(([, value]) => value !== null))
    : {};
  checkConfiguration(payloadSchemas, setting, allowPrivateAddresses);

  const tenant = await findTenant(em, selector, true);
  const before = tenantView(tenant);
  if (name !== undefined) tenant.name = name;
  if (authentication !== undefined) tenant.authentication = authentication;
  if (configuration) {
    const merged: TenantConfiguration = { ...tenant.configuration, ...setting };
    for (const [key, value] of Object.entries(configuration)) if (value === null) delete merged[key];
    tenant.configuration = merged;
  }
  await em.flush();
  return { before, after: tenantView(tenant) };
}

/** docs/tenant.md#disabling: a disabled tenant's API key is refused; enabling it again restores it. */
export async function setTenantDisabled(
  em: EntityManager,
  selector: TenantSelector,
  disabled: boolean,
  now: Date,
): Promise<TenantChange> {
  const tenant = await findTenant(em, selector, true);
  const before = tenantView(tenant);
  if (disabled !== (tenant.disabledAt !== null)) tenant.disabledAt = disabled ? now : null;
  await em.flush();
  return { before, after: tenantView(tenant) };
}

/** Replaces the API key; the old one stops working at once (within the key cache's lifetime). */
export async function rotateApiKey(em: EntityManager, slug: string): Promise<TenantChange & { key: string }> {
  const tenant = await findTenantBySlug(em, slug);
  const before = tenantView(tenant);
  const apiKey = issueApiKey();
  tenant.apiKeyPrefix = apiKey.prefix;
  tenant.apiKeyHash = apiKey.hash;
  await em.flush();
  return { before, after: tenantView(tenant), key: apiKey.key };
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 200) {
    throw fieldError('name', name, 'length', 'name must be 1 to 200 characters, not only spaces');
  }
  return trimmed;
}
