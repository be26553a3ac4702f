import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';

/**
 * What is left unspent of an EARN that expires (docs/points.md#expiry). The ledger stays
 * append-only: spending, reversing and expiring shrink the lot, never the entry, and a lot is
 * deleted once nothing is left of it, so the table holds only points that can still expire. A
 * member's lots never hold more than its balance: every debit takes from them first, soonest to
 * expire first.
 */
export const PointsLot = defineEntity({
  name: 'PointsLot',
  tableName: 'points_lot',
  checks: [{ name: 'points_lot_remaining_positive', expression: 'remaining > 0' }],
  indexes: [
    // A member's lots in spending order, and the sums the expiry predictions read.
    { properties: ['user', 'expiresAt'] },
    // The sweep's next batch: the lots due first, of every tenant, in the order it reads them, so
    // a batch is read off the index even when many lots share an instant (a registration batch's).
    { properties: ['expiresAt', 'entryId'] },
  ],
  properties: {
    /** The EARN ledger entry this is what is left of. */
    entryId: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    user: p.manyToOne(User).deleteRule('cascade'),
    expiresAt: p.datetime(),
    remaining: p.bigint('number'),
  },
});

export type PointsLot = InferEntity<typeof PointsLot>;
