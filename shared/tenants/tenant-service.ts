import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors/app-errors.js';
import { createSystemEventTypes } from '../event-types/system-event-types.js';
import { PLATFORM_TOKEN_ISSUER } from '../platform/auth/admin-token.js';
import { issueApiKey } from './api-key.js';
import type { TenantAuthentication } from '../platform/auth/user-token.js';
import { Tenant, type TenantConfiguration } from './tenant.entity.js';
import { tenantView, type TenantView } from './tenant-view.js';

export interface NewTenant {
  name: string;
  slug: string;
  authentication?: TenantAuthentication | null;
  configuration?: TenantConfiguration;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Creates a tenant with its system event types in one transaction; the key is returned this once. */
export async function createTenant(em: EntityManager, input: NewTenant): Promise<TenantView & { key: string }> {
  checkNewTenant(input);
  const apiKey = issueApiKey();
  return em.transactional(async (tx) => {
    if (await tx.count(Tenant, { slug: input.slug }))
      throw new ConflictError(`A tenant with slug "${input.slug}" already exists`);
    const tenant = tx.create(Tenant, {
      id: randomUUID(),
      name: input.name,
      slug: input.slug,
      apiKeyPrefix: apiKey.prefix,
      apiKeyHash: apiKey.hash,
      authentication: input.authentication ?? null,
      configuration: input.configuration ?? {},
    });
    createSystemEventTypes(tx, tenant.id);
    await tx.flush();
    return { ...tenantView(tenant), key: apiKey.key };
  });
}

export async function listTenants(em: EntityManager): Promise<TenantView[]> {
  const tenants = await em.find(Tenant, {}, { orderBy: { createdAt: 'ASC' } });
  return tenants.map(tenantView);
}

export async function findTenantBySlug(em: EntityManager, slug: string): Promise<Tenant> {
  const tenant = await em.findOne(Tenant, { slug });
  if (!tenant) throw new NotFoundError(`No tenant has the slug "${slug}"`);
  return tenant;
}

/** Replaces the API key; the old one stops working at once (within the key cache's lifetime). */
export async function rotateApiKey(
  em: EntityManager,
  slug: string,
): Promise<{ before: TenantView; after: TenantView; key: string }> {
  const tenant = await findTenantBySlug(em, slug);
  const before = tenantView(tenant);
  const apiKey = issueApiKey();
  tenant.apiKeyPrefix = apiKey.prefix;
  tenant.apiKeyHash = apiKey.hash;
  await em.flush();
  return { before, after: tenantView(tenant), key: apiKey.key };
}

function checkNewTenant(input: NewTenant): void {
  const problems: Record<string, string> = {};
  if (!input.name.trim()) problems.name = 'name must not be empty';
  if (!SLUG.test(input.slug))
    problems.slug = 'slug must be lower-case letters and digits, words joined by single hyphens';
  const auth = input.authentication;
  if (auth) {
    if (!auth.issuer) problems.issuer = 'the issuer must not be empty';
    // Tokens carrying the platform's issuer are admin tokens; a tenant may not claim it.
    if (auth.issuer === PLATFORM_TOKEN_ISSUER)
      problems.issuer = `the issuer "${PLATFORM_TOKEN_ISSUER}" is reserved for admin tokens`;
    if (auth.algorithm === 'HS256' && !auth.sharedKey) problems.sharedKey = 'HS256 needs a shared key';
    if (auth.algorithm === 'RS256' && !isHttpUrl(auth.jwksUrl))
      problems.jwksUrl = 'RS256 needs an http(s) JWKS address';
  }
  const entries = Object.entries(problems);
  if (entries.length) {
    throw new ValidationError(
      entries.map(([, message]) => message).join('; '),
      entries.map(([property, message]) => ({
        property,
        value: undefined,
        constraints: { invalid: message },
        children: [],
      })),
    );
  }
}

function isHttpUrl(value: string | undefined): boolean {
  if (!value) return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
