import type { Tenant } from './tenant.entity.js';

/**
 * A tenant as it may be shown: the API key's prefix, never the key or its hash, and the
 * authentication settings without the shared key (docs/receipts.md#rule-sets).
 */
export function tenantView(tenant: Tenant) {
  const authentication = tenant.authentication
    ? tenant.authentication.algorithm === 'HS256'
      ? { algorithm: tenant.authentication.algorithm, issuer: tenant.authentication.issuer }
      : {
          algorithm: tenant.authentication.algorithm,
          issuer: tenant.authentication.issuer,
          jwksUrl: tenant.authentication.jwksUrl,
        }
    : null;
  return {
    id: tenant.id,
    name: tenant.name,
    slug: tenant.slug,
    keyPrefix: tenant.apiKeyPrefix,
    authentication,
    configuration: tenant.configuration,
    disabledAt: tenant.disabledAt ? tenant.disabledAt.toISOString() : null,
    createdAt: tenant.createdAt.toISOString(),
    updatedAt: tenant.updatedAt.toISOString(),
  };
}

export type TenantView = ReturnType<typeof tenantView>;
