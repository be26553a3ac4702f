import { Type } from 'typebox';

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
