import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';

/** A tenant's subscription to its events (docs/events.md#webhooks). */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhook',
  indexes: [{ properties: ['tenant', 'isActive'] }],
  properties: {
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    url: p.text(),
    /** Event type names delivered; empty means every type. */
    eventTypes: p.json<string[]>(),
    /** The Standard Webhooks signing secret (`whsec_…`), sealed (shared/platform/secrets/sealer.ts): kept to sign, shown on create only. */
    secret: p.string(),
    isActive: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type Webhook = InferEntity<typeof Webhook>;
