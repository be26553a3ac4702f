import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

import type { JsonSchema } from '../platform/validation/payload-schema.js';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

export const EventType = defineEntity({
  name: 'EventType',
  tableName: 'event_type',
  uniques: [{ properties: ['tenant', 'name'] }],
  properties: {
    ...tenantOwned(),
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
    ...timestampProperties(),
  },
});

export type EventType = InferEntity<typeof EventType>;
