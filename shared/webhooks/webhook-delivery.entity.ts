import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Webhook } from './webhook.entity.js';
import { tenantOwned } from '../tenants/tenant-owned.js';

export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One event's delivery to one webhook: its id is the `webhook-id` header, the same on every
 * attempt, so a receiver can drop repeats. (webhook, event) is unique: an event dispatched twice
 * is delivered once.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  uniques: [{ properties: ['webhook', 'eventId'] }],
  indexes: [{ properties: ['tenant', 'createdAt'] }],
  properties: {
    ...tenantOwned(),
    webhook: p.manyToOne(Webhook).deleteRule('cascade'),
    eventId: p.bigint('number'),
    eventType: p.string(),
    status: p.enum(['PENDING', 'SUCCEEDED', 'FAILED']),
    attempts: p.json<DeliveryAttempt[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    deliveredAt: p.datetime().nullable(),
  },
});

export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;
