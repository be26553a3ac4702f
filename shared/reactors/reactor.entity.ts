import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import type { RuleConditions } from '../platform/conditions/conditions.js';
import type { Reaction } from './reaction.js';

/** What a tenant's events turn into (docs/events.md#reactors): conditions over the event, then reactions. */
export const Reactor = defineEntity({
  name: 'Reactor',
  tableName: 'reactor',
  uniques: [{ properties: ['tenant', 'name'] }],
  indexes: [{ properties: ['tenant', 'eventType'] }],
  properties: {
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    name: p.string(),
    /** The event type's name: reactors follow a type by name, as tenants write them. */
    eventType: p.string(),
    isActive: p.boolean().default(true),
    conditions: p.json<RuleConditions>().nullable(),
    reactions: p.json<Reaction[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type Reactor = InferEntity<typeof Reactor>;
