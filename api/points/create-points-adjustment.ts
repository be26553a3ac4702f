import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { adjustPoints, findPointsAdjustment } from '../../shared/ledger/adjust-points.js';
import { fieldError } from '../../shared/platform/errors/app-errors.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { memberOf } from '../routes/member-target.js';
import { UserIdParams } from '../users/schema.js';
import { PointsHistoryItem } from '../../shared/ledger/points-history-resource.js';
import { ADJUSTMENT_EXAMPLE, CreatePointsAdjustmentBody, tags } from './schema.js';

/** docs/points.md#adjustments: an admin adds or takes away a member's points, audited, at most once per Idempotency-Key. */
export function registerCreatePointsAdjustment(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/users/:id/points-adjustments',
    operationId: 'createPointsAdjustment',
    summary: "Adjust a member's points",
    description:
      "Adds (positive `points`) or takes away (negative) a member's points, the member found by its id, `authIdentifier` or account number, " +
      'and answers the ledger entry as the points history shows it, its cause naming the admin and the reason. ' +
      'Added points never expire, and an adjustment counts toward no cap or tier. ' +
      'A negative adjustment larger than the balance is refused with 422 `InsufficientPointsError`, and changes nothing. ' +
      'With `Idempotency-Key`, a retry answers the first adjustment and moves no point more. Each adjustment is in the audit log.',
    examples: { request: { points: 50, reason: 'Goodwill after a late delivery' }, response: ADJUSTMENT_EXAMPLE },
    tags,
    access: { admin: 'admin:users' },
    // A retry after the first request died past its commit answers that entry.
    idempotency: createsRecord(async (c, id) => {
      const found = await findPointsAdjustment(entityManager(c), c.var.tenant.id, id);
      return found ? success(c, found, 201) : undefined;
    }),
    params: UserIdParams,
    body: CreatePointsAdjustmentBody,
    responses: { 201: { description: 'adjusted', data: PointsHistoryItem } },
    errors: [404, 422],
    handler: async ({ body }, c) => {
      if (body.points === 0) throw fieldError('points', 0, 'nonZero', 'points must not be 0: add or take away some');
      const member = await memberOf(c);
      return adjustPoints(
        context,
        entityManager(c),
        {
          id: c.var.reservedId ?? randomUUID(),
          tenantId: c.var.tenant.id,
          userId: member.id,
          points: body.points,
          reason: body.reason,
          actor: actorOf(c.var.principal),
        },
        new Date(context.clock.now()),
      );
    },
  });
}
