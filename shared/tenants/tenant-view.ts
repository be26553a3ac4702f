import type { Tenant, TenantConfiguration } from './tenant.entity.js';
import { PARTNERS, type TenantSettings } from './tenant-settings.js';

/**
 * A tenant as it may be shown: the API key's prefix, never the key or its hash, the
 * authentication settings without the shared key (docs/receipts.md#rule-sets), and the partners'
 * endpoints without their signing secrets (docs/tenant.md#configuration).
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
    configuration: withoutPartnerSecrets(tenant.configuration),
    disabledAt: tenant.disabledAt ? tenant.disabledAt.toISOString() : null,
    createdAt: tenant.createdAt.toISOString(),
    updatedAt: tenant.updatedAt.toISOString(),
  };
}

export type TenantView = ReturnType<typeof tenantView>;

function withoutPartnerSecrets(configuration: TenantConfiguration): TenantConfiguration {
  const partners = (configuration as TenantSettings).partners;
  if (!partners) return configuration;
  const shown: Record<string, { url: string }> = {};
  for (const partner of PARTNERS) {
    const endpoint = partners[partner];
    if (endpoint) shown[partner] = { url: endpoint.url };
  }
  return { ...configuration, partners: shown };
}
