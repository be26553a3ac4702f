import { actorOf } from '../../shared/audit/audit-log.js';
import type { AppContext } from '../../shared/context.js';
import { parseAdjustmentCsv } from '../../shared/jobs/adjustment-lines.js';
import { createAdjustmentJob, queueAdjustmentJob } from '../../shared/jobs/bulk-adjustments.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { JOB_ID_EXAMPLE } from '../jobs/schema.js';
import { defineRoute } from '../routes/define-route.js';
import { success } from '../routes/answer.js';
import { BulkAdjustmentAccepted, BulkAdjustmentBody, bulkAccess, tags } from './schema.js';

/**
 * 100,000 lines with a member's id and a reason of some 60 characters come to about 12 MB of JSON;
 * the limit leaves room above that and stays bounded. Nothing reads the body before the admin
 * token is checked.
 */
export const BULK_ADJUSTMENT_BODY_LIMIT = 16 * 1024 * 1024;

export function registerBulkAdjustments(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/points-adjustments/bulk',
    operationId: 'createBulkPointsAdjustment',
    summary: 'Adjust many members’ points at once',
    description:
      "Adds or takes away points for up to 100,000 lines (a body of up to 16 MB) and answers 202 with a job id at once; a worker then applies the lines in batches, and `GET /v1/jobs/{id}` shows how far it got. Send JSON `{lines: [{member, points, reason}]}`, or `Content-Type: text/csv` with the header `member,points,reason` and one line per adjustment (quoted as RFC 4180 says; line 1 is the first after the header, as in JSON). `member` is a member's id, authIdentifier or accountNumber, tried in that order. Each line applies exactly once, in its order for one member, as an ADJUSTMENT ledger entry with its reason. A line whose member is unknown, or that takes more points than the balance holds at its turn, is skipped and listed in the job's `errors` with its line number; the other lines apply. A malformed body applies nothing: 400 naming the first faulty line. With an Idempotency-Key a retry answers the same job id and queues nothing more.",
    examples: {
      request: {
        lines: [
          { member: 'alice@example.com', points: 500, reason: 'Goodwill: delayed delivery' },
          { member: '10042', points: -200, reason: 'Duplicate receipt' },
        ],
      },
      response: { jobId: JOB_ID_EXAMPLE },
    },
    tags,
    access: bulkAccess,
    bodyLimit: BULK_ADJUSTMENT_BODY_LIMIT,
    idempotency: createsRecord(async (c, id) => {
      const [job] = (
        await entityManager(c)
          .getKnex()
          .raw<{ rows: unknown[] }>('select 1 from job where id = ? and tenant_id = ?', [id, c.var.tenant.id])
      ).rows;
      if (!job) return undefined;
      // The first request may have died between its commit and its queueing.
      await queueAdjustmentJob(context.queues, { tenantId: c.var.tenant.id, jobId: id });
      return success(c, { jobId: id }, 202);
    }),
    body: BulkAdjustmentBody,
    bodyOptions: { csv: parseAdjustmentCsv },
    responses: { 202: { description: 'accepted: the job that applies the lines', data: BulkAdjustmentAccepted } },
    errors: [413],
    handler: async ({ body }, c) => {
      const jobId = await createAdjustmentJob(
        context,
        entityManager(c),
        c.var.tenant.id,
        actorOf(c.var.principal),
        body.lines,
        c.var.reservedId,
      );
      return { jobId };
    },
  });
}
