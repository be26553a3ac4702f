import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

/** A tenant's subscription to its events (docs/events.md#webhooks). */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhook',
  indexes: [{ properties: ['tenant', 'isActive'] }],
  properties: {
    ...tenantOwned(),
    url: p.text(),
    /** Event type names delivered; empty means every type. */
    eventTypes: p.json<string[]>(),
    /** The Standard Webhooks signing secret (`whsec_…`), sealed (shared/platform/secrets/sealer.ts): kept to sign, shown on create only. */
    secret: p.string(),
    isActive: p.boolean().default(true),
    ...timestampProperties(),
  },
});

export type Webhook = InferEntity<typeof Webhook>;
