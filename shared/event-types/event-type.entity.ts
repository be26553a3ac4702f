import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';

import type { JsonSchema } from '../platform/validation/payload-schema.js';

export const EventType = defineEntity({
  name: 'EventType',
  tableName: 'event_type',
  uniques: [{ properties: ['tenant', 'name'] }],
  properties: {
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    name: p.string(),
    description: p.text(),
    isPrivate: p.boolean(),
    schema: p.json<JsonSchema>().nullable(),
    omitFromUserActivity: p.boolean().default(false),
    isActive: p.boolean().default(true),
    /** SHA-256 of a private type's secret; the secret is shown on create and rotate only. */
    secretHash: p.string().nullable(),
    /** ORDER_PLACED and RECEIPT_REVIEWED, reported by the receipts service (docs/events.md#system-event-types). */
    isSystem: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type EventType = InferEntity<typeof EventType>;
