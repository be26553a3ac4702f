import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';

/**
 * A member's points earned and spent on one day of the tenant's time zone, kept in the same
 * transaction as the ledger entries they sum (docs/points.md#caps). Caps read the days of their
 * calendar period and tiers the days of their window: a bounded number of rows, however long the
 * member's history.
 */
export const PointsDay = defineEntity({
  name: 'PointsDay',
  tableName: 'points_day',
  properties: {
    user: p.manyToOne(User).primary().deleteRule('cascade'),
    day: p.string().columnType('date').primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    /** EARN points granted, less those reversed since. */
    earned: p.bigint('number').default(0),
    /** SPEND points, less those refunded since. */
    spent: p.bigint('number').default(0),
  },
});

export type PointsDay = InferEntity<typeof PointsDay>;
