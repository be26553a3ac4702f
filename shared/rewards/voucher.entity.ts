import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';
import { Reward, RewardCode } from './reward.entity.js';
import { tenantOwned } from '../tenants/tenant-owned.js';

/**
 * A voucher in a member's wallet (docs/rewards.md#vouchers), from a purchase (`purchaseId`, unique:
 * a purchase gives one voucher) or from a VOUCHER reaction (`eventId`, `reactorId`, unique as a
 * pair: an event granted once per reactor). `cost` is the reward's cost when it was obtained.
 * `redemptionEndsAt` is set with `redeemedAt`: past it, unvalidated, the voucher is gone.
 */
export const Voucher = defineEntity({
  name: 'Voucher',
  tableName: 'voucher',
  uniques: [{ properties: ['eventId', 'reactorId'] }],
  indexes: [{ properties: ['tenant', 'user', 'createdAt'] }],
  properties: {
    ...tenantOwned(),
    user: p.manyToOne(User).deleteRule('cascade'),
    reward: p.manyToOne(Reward).deleteRule('cascade'),
    code: p.oneToOne(RewardCode).owner().unique().deleteRule('cascade'),
    purchaseId: p.uuid().nullable().unique(),
    eventId: p.bigint('number').nullable(),
    reactorId: p.uuid().nullable(),
    cost: p.decimal('number').precision(14).scale(4),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    redeemedAt: p.datetime().nullable(),
    redemptionEndsAt: p.datetime().nullable(),
    burnedAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});

export type Voucher = InferEntity<typeof Voucher>;
