import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { Reward } from './reward.entity.js';

export const PURCHASE_RESOURCE_TYPES = ['REWARD', 'PARTNER1_PRODUCT', 'PARTNER2_PRODUCT'] as const;
export type PurchaseResourceType = (typeof PURCHASE_RESOURCE_TYPES)[number];

/**
 * A member's purchase of a reward with points (docs/rewards.md#purchases): its SPEND ledger entry
 * names it, and a voucher purchase its voucher. `points` and `cost` are what it cost then.
 */
export const Purchase = defineEntity({
  name: 'Purchase',
  tableName: 'purchase',
  indexes: [
    { properties: ['tenant', 'createdAt'] },
    { properties: ['tenant', 'user', 'createdAt'] },
    { properties: ['tenant', 'reward', 'createdAt'] },
  ],
  properties: {
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    user: p.manyToOne(User).deleteRule('cascade'),
    reward: p.manyToOne(Reward).deleteRule('cascade'),
    resourceType: p.enum([...PURCHASE_RESOURCE_TYPES]),
    points: p.bigint('number'),
    cost: p.decimal('number').precision(14).scale(4),
    voucherId: p.uuid().nullable().unique(),
    createdAt: p.datetime(),
  },
});

export type Purchase = InferEntity<typeof Purchase>;
