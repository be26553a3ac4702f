import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { TenantAuthentication } from '../platform/auth/user-token.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

/** Free-form per-tenant settings; later features read their own members (review, tiers, rateLimit …). */
export type TenantConfiguration = Record<string, unknown> & {
  /** The browser origins (`https://shop.example`) that may call the API with this tenant's key (docs/api-conventions.md#browsers). */
  corsOrigins?: string[];
};

export const Tenant = defineEntity({
  name: 'Tenant',
  tableName: 'tenant',
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
    slug: p.string().unique(),
    /** The first characters of the API key: the lookup handle, safe to show (docs/receipts.md#rule-sets). */
    apiKeyPrefix: p.string().unique(),
    /** SHA-256 of the whole key; the key itself is shown once and never stored. */
    apiKeyHash: p.string(),
    authentication: p.json<TenantAuthentication>().nullable(),
    configuration: p.json<TenantConfiguration>(),
    /** Set while the tenant is disabled: its API key is refused (docs/tenant.md#disabling). */
    disabledAt: p.datetime().nullable(),
    ...timestampProperties(),
  },
});

export type Tenant = InferEntity<typeof Tenant>;
