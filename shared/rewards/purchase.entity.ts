import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';
import { Reward } from './reward.entity.js';
import { tenantOwned } from '../tenants/tenant-owned.js';

export const PURCHASE_RESOURCE_TYPES = ['REWARD', 'PARTNER1_PRODUCT', 'PARTNER2_PRODUCT'] as const;
export type PurchaseResourceType = (typeof PURCHASE_RESOURCE_TYPES)[number];

/**
 * A voucher purchase is CONFIRMED when it commits; a partner product's is PENDING until its partner
 * takes the order (CONFIRMED) or refuses it for good (REFUNDED: docs/rewards.md#partner-products).
 */
export const PURCHASE_STATUSES = ['PENDING', 'CONFIRMED', 'REFUNDED'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/**
 * A member's purchase of a reward with points (docs/rewards.md#purchases): its SPEND ledger entry
 * names it, and a voucher purchase its voucher. `points` and `cost` are what it cost then.
 */
export const Purchase = defineEntity({
  name: 'Purchase',
  tableName: 'purchase',
  indexes: [
    { properties: ['tenant', 'createdAt'] },
    // The partner orders still to place: what the recovery sweep reads (recover-partner-orders.ts).
    {
      name: 'purchase_pending_index',
      expression: `create index "purchase_pending_index" on "purchase" ("created_at") where "status" = 'PENDING'`,
    },
    { properties: ['tenant', 'user', 'createdAt'] },
    { properties: ['tenant', 'reward', 'createdAt'] },
  ],
  properties: {
    ...tenantOwned(),
    user: p.manyToOne(User).deleteRule('cascade'),
    reward: p.manyToOne(Reward).deleteRule('cascade'),
    resourceType: p.enum([...PURCHASE_RESOURCE_TYPES]),
    points: p.bigint('number'),
    cost: p.decimal('number').precision(14).scale(4),
    voucherId: p.uuid().nullable().unique(),
    status: p.enum([...PURCHASE_STATUSES]).default('CONFIRMED'),
    /** The partner's own reference for the order, when its answer gave one. */
    partnerReference: p.text().nullable(),
    /** A partner product's id at its partner as it was when bought: the order names what was paid for, whatever the reward says since. */
    partnerProductId: p.text().nullable(),
    /** When the partner confirmed or refused the order for good. */
    settledAt: p.datetime().nullable(),
    /** Why the partner order was refunded: the partner's answer, or the last error. */
    failureReason: p.text().nullable(),
    createdAt: p.datetime(),
  },
});

export type Purchase = InferEntity<typeof Purchase>;
