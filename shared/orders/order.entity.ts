import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ReceiptLineItem } from '../receipts/receipt.entity.js';
import { User } from '../users/user.entity.js';
import { tenantOwned } from '../tenants/tenant-owned.js';

/** A line item of a point-of-sale order: a receipt's, without the free-form metadata or a parser's confidence. */
export type OrderLineItem = Omit<ReceiptLineItem, 'metadata' | 'confidence'>;

/**
 * A point-of-sale order (docs/receipts.md#orders). The same transactionId at the same locationId is
 * one order: the unique index settles two tills racing to submit it.
 */
export const Order = defineEntity({
  name: 'Order',
  tableName: 'pos_order',
  uniques: [{ properties: ['tenant', 'locationId', 'transactionId'] }],
  indexes: [
    { properties: ['tenant', 'createdAt'] },
    // The recovery sweep looks for orders whose event was never registered.
    {
      name: 'pos_order_reported_index',
      expression: 'create index "pos_order_reported_index" on "pos_order" ("created_at") where "event_id" is not null',
    },
  ],
  properties: {
    ...tenantOwned(),
    transactionId: p.string(),
    locationId: p.string(),
    cashierId: p.string().nullable(),
    total: p.decimal('number').precision(14).scale(4),
    subtotal: p.decimal('number').precision(14).scale(4).nullable(),
    currency: p.string().length(3).nullable(),
    lineItems: p.json<OrderLineItem[]>(),
    occurredAt: p.datetime().nullable(),
    /** The member who submitted it; null for a sale to a non-member. */
    submitter: p.manyToOne(User).nullable().deleteRule('set null'),
    /** The ORDER_PLACED event's id; null when the tenant had the type deactivated. */
    eventId: p.bigint('number').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type Order = InferEntity<typeof Order>;
