import type { Knex } from 'knex';
import type { Actor } from '../audit/audit-job.js';
import { auditedChange, type AuditDependencies } from '../audit/audit-log.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { PointsHistoryItem } from './points-history-resource.js';
import { historyItems } from './points-history.js';
import { adjust } from './spend-and-adjust.js';

export interface PointsAdjustmentRequest {
  /** The entry's id: the one reserved with an Idempotency-Key, so a retry finds the entry the first try made. */
  id: string;
  tenantId: string;
  /** The member, found within the tenant by the caller. */
  userId: string;
  /** Non-zero: positive adds, negative takes away. */
  points: number;
  reason: string;
  actor: Actor;
}

/**
 * An admin's single adjustment (docs/points.md#adjustments): an ADJUSTMENT entry under the
 * request's id, the wallet moved (a negative one larger than the balance is 422
 * InsufficientPointsError and writes nothing), and its audit entry, all in one transaction.
 * Asked again with the same id, it answers the entry the first call made, moves no point and
 * audits nothing: twins (a retry that took over a request still running) take turns on a lock of
 * the id, so the second finds the first's entry.
 */
export async function adjustPoints(
  deps: AuditDependencies,
  em: EntityManager,
  request: PointsAdjustmentRequest,
  at: Date,
): Promise<PointsHistoryItem> {
  const done = await auditedChange(
    deps,
    em,
    async (tx) => {
      const trx = tx.getTransactionContext<Knex.Transaction>()!;
      await trx.raw(`select pg_advisory_xact_lock(hashtext('points-adjustment:' || ?))`, [request.id]);
      // A statement of its own: its snapshot is taken once the lock is held, so it sees the twin's commit.
      const [earlier] = await historyItems(trx, request.tenantId, [request.id]);
      if (earlier) return { item: earlier, created: false };
      await adjust(trx, {
        entryId: request.id,
        tenantId: request.tenantId,
        userId: request.userId,
        points: request.points,
        cause: { reason: request.reason, actor: request.actor.subject },
        at,
      });
      const [item] = await historyItems(trx, request.tenantId, [request.id]);
      return { item: item!, created: true };
    },
    ({ item, created }) =>
      created
        ? {
            tenantId: request.tenantId,
            actor: request.actor,
            action: 'points_adjustment.created',
            resourceType: 'points_adjustment',
            resourceId: item.id,
            before: null,
            after: { ...item, userId: request.userId },
          }
        : undefined,
  );
  return done.item;
}

/** The tenant's ADJUSTMENT entry of this id as the history shows it, or undefined. */
export async function findPointsAdjustment(
  em: EntityManager,
  tenantId: string,
  id: string,
): Promise<PointsHistoryItem | undefined> {
  const [item] = await historyItems(em.getKnex(), tenantId, [id]);
  return item?.kind === 'ADJUSTMENT' ? item : undefined;
}
