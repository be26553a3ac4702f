import { Type, type Static } from 'typebox';
import { TIMESTAMPS } from '../platform/validation/timestamps.js';
import type { Tenant, TenantConfiguration } from './tenant.entity.js';
import { PARTNERS, TenantConfigurationSchema, type TenantSettings } from './tenant-settings.js';

/** How user tokens are verified, as shown: the shared key never is (docs/tenant.md#reading-settings). */
const ShownAuthentication = Type.Union([
  Type.Object({ algorithm: Type.Literal('HS256'), issuer: Type.String() }),
  Type.Object({ algorithm: Type.Literal('RS256'), issuer: Type.String(), jwksUrl: Type.String() }),
  Type.Null(),
]);

/** The partner endpoints as shown: their addresses, never their signing secrets (docs/rewards.md#partner-products). */
const ShownPartner = Type.Object({ url: Type.String() });
const ShownConfiguration = Type.Object(
  {
    ...TenantConfigurationSchema.properties,
    partners: Type.Optional(
      Type.Object({ PARTNER1: Type.Optional(ShownPartner), PARTNER2: Type.Optional(ShownPartner) }),
    ),
  },
  {
    additionalProperties: false,
    description: "The tenant's settings: every key is optional; partner secrets are never shown",
  },
);

export const TenantResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    slug: Type.String(),
    keyPrefix: Type.String({ description: "The API key's first characters: enough to recognise it, not to use it" }),
    authentication: ShownAuthentication,
    configuration: ShownConfiguration,
    disabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    ...TIMESTAMPS,
  },
  { title: 'Tenant' },
);

/**
 * A tenant as it may be shown: the API key's prefix, never the key or its hash, the
 * authentication settings without the shared key (docs/receipts.md#rule-sets), and the partners'
 * endpoints without their signing secrets (docs/tenant.md#configuration).
 */
export function tenantView(tenant: Tenant): TenantView {
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

export type TenantView = Static<typeof TenantResource>;

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
