import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type } from 'typebox';
import { TenantConfigurationSchema } from '../../shared/tenants/tenant-settings.js';

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
 * docs/tenant.md#changing-settings. `authentication` and `configuration` are checked by the
 * service (shared/tenants/check-settings.ts), the CLI meeting the same checks: `authentication`
 * against the branch its `algorithm` picks, `configuration` key by key, a key set to null removed.
 */
export const TenantChangesBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    authentication: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
        description:
          'Replaces the whole setting: {algorithm: "HS256", issuer, sharedKey} or {algorithm: "RS256", issuer, jwksUrl}; ' +
          'null: the tenant accepts no user tokens',
      }),
    ),
    configuration: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Keys to set, each replacing its stored value; a key set to null is removed; keys not sent are kept. ' +
          'The keys and their values are those of the configuration in the answer.',
      }),
    ),
  },
  { additionalProperties: false, title: 'TenantChanges' },
);

/** The tenant as the examples of both routes show it. */
export const TENANT_EXAMPLE = {
  id: '0d9f8e7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f',
  name: 'Northwind Coffee',
  slug: 'northwind',
  keyPrefix: 'tly_nw4k',
  authentication: { algorithm: 'HS256' as const, issuer: 'https://auth.northwind.example' },
  configuration: {
    review: { maxAgeDays: 30, minConfidence: 0.8 },
    rateLimit: { perSecond: 200, burst: 400 },
    corsOrigins: ['https://shop.northwind.example'],
    timezone: 'Europe/London',
  },
  disabledAt: null,
  createdAt: '2026-01-05T09:00:00.000Z',
  updatedAt: '2026-03-02T14:30:00.000Z',
};

export const tags = ['Tenant'];
