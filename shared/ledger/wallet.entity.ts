import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';

/**
 * A member's running totals, kept in the same transaction as the ledger entries they sum, so a
 * balance is one row to read and one conditional update to spend. `CHECK (points >= 0)` makes a
 * negative balance impossible whatever the code does.
 */
export const Wallet = defineEntity({
  name: 'Wallet',
  tableName: 'wallet',
  checks: [{ name: 'wallet_points_not_negative', expression: 'points >= 0' }],
  properties: {
    user: p.oneToOne(User).primary().owner().deleteRule('cascade'),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    points: p.bigint('number').default(0),
    lifetimeEarn: p.bigint('number').default(0),
    updatedAt: p.datetime(),
  },
});

export type Wallet = InferEntity<typeof Wallet>;
