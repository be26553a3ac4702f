import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { EventType } from '../event-types/event-type.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import type { StoredReaction } from './stored-reaction.js';

/**
 * A registered event. Append-only apart from `reactedAt`; ids come from the `event_id_seq`
 * sequence in blocks, so they are unique across the installation and never reused.
 */
export const Event = defineEntity({
  name: 'Event',
  tableName: 'event',
  indexes: [{ properties: ['tenant', 'reportedAt'] }, { properties: ['tenant', 'user', 'reportedAt'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(false),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    type: p.manyToOne(EventType).deleteRule('cascade'),
    /** Null for the tenant's service subject (business proceedings with no customer). */
    user: p.manyToOne(User).nullable().deleteRule('cascade'),
    payload: p.json<Record<string, unknown>>(),
    reportedAt: p.datetime(),
    occurredAt: p.datetime().nullable(),
    registeredAt: p.datetime(),
    reactedAt: p.datetime().nullable(),
    reactions: p.json<StoredReaction[]>(),
    totalPoints: p.bigint('number'),
  },
});

export type Event = InferEntity<typeof Event>;
