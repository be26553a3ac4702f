import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { RuleConditions } from '../platform/conditions/conditions.js';
import type { Reaction } from './reaction.js';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

/** What a tenant's events turn into (docs/events.md#reactors): conditions over the event, then reactions. */
export const Reactor = defineEntity({
  name: 'Reactor',
  tableName: 'reactor',
  uniques: [{ properties: ['tenant', 'name'] }],
  indexes: [{ properties: ['tenant', 'eventType'] }],
  properties: {
    ...tenantOwned(),
    name: p.string(),
    /** The event type's name: reactors follow a type by name, as tenants write them. */
    eventType: p.string(),
    isActive: p.boolean().default(true),
    conditions: p.json<RuleConditions>().nullable(),
    reactions: p.json<Reaction[]>(),
    ...timestampProperties(),
  },
});

export type Reactor = InferEntity<typeof Reactor>;
