import { lookupUsers } from '../users/lookup-user.js';
import type { Actor, AuditQueue } from '../audit/audit-job.js';
import { auditedChange, type AuditDependencies } from '../audit/audit-log.js';
import { livenessStatement } from '../platform/db/session-liveness.js';
import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Knex } from 'knex';
import { adjustInBulk, type BulkAdjustment } from '../ledger/spend-and-adjust.js';
import type { Clock } from '../platform/async/clock.js';
import type { Orm } from '../platform/db/orm.js';
import { NotFoundError } from '../platform/errors/app-errors.js';
import { retryIfFailed, type SweepWindow } from '../platform/queues/stranded-work.js';
import type { JobView } from './job-resource.js';
import type { JobKind, JobLineError, JobStatus } from './job.entity.js';
import {
  DEFAULT_ADJUSTMENT_BATCH,
  pointsAdjustmentJobOptions,
  type PointsAdjustmentJob,
  type PointsAdjustmentQueue,
} from './points-adjustment-job.js';

/**
 * Bulk points adjustments (docs/points.md#bulk-adjustments): up to 100,000 lines stored as one
 * job row and queued at once; a `points-adjustments` worker applies them in batches, each batch
 * in one transaction with the job's progress, so every line applies exactly once however often the
 * worker dies and the job runs again.
 */

/** One line as the client sent it: `member` is a member's id, authIdentifier or accountNumber. */
export interface AdjustmentLine {
  member: string;
  points: number;
  reason: string;
}

export interface BulkAdjustmentDependencies extends Omit<AuditDependencies, 'queues'> {
  queues: PointsAdjustmentQueue & AuditQueue;
}

/**
 * Stores the job with its audit entry (`points_adjustment_job.created`: who asked for how many
 * lines; each line's entry names the job) and queues it; resolves to its id (`id`, the
 * Idempotency-Key's reserved id, when given). A crash between the commit and the queueing leaves
 * a `queued` row, which the recovery sweep queues (recoverStrandedJobs).
 */
export async function createAdjustmentJob(
  deps: BulkAdjustmentDependencies,
  em: EntityManager,
  tenantId: string,
  actor: Actor,
  lines: AdjustmentLine[],
  id: string = randomUUID(),
): Promise<string> {
  const at = new Date(deps.clock.now());
  await auditedChange(
    deps,
    em,
    async (tx) => {
      const inserted = await tx.getTransactionContext<Knex.Transaction>()!.raw<{ rows: unknown[] }>(
        `insert into job (id, tenant_id, kind, status, total, done, failed, input, cursor, actor, created_at, updated_at)
         values (?, ?, 'POINTS_ADJUSTMENT', 'queued', ?, 0, 0, ?::jsonb, 0, ?, ?, ?)
         on conflict (id) do nothing returning id`,
        [id, tenantId, lines.length, JSON.stringify(lines), actor.subject, at, at],
      );
      return inserted.rows.length > 0;
    },
    (created) =>
      created
        ? {
            tenantId,
            actor,
            action: 'points_adjustment_job.created',
            resourceType: 'job',
            resourceId: id,
            before: null,
            after: { id, kind: 'POINTS_ADJUSTMENT', total: lines.length },
          }
        : undefined,
  );
  await queueAdjustmentJob(deps.queues, { tenantId, jobId: id });
  return id;
}

export async function queueAdjustmentJob(queues: PointsAdjustmentQueue, data: PointsAdjustmentJob): Promise<void> {
  await queues['points-adjustments'].add('adjust', data, pointsAdjustmentJobOptions(data.jobId));
}

interface JobRow {
  id: string;
  kind: JobKind;
  status: JobStatus;
  total: number;
  done: number;
  failed: number;
  errors: JobLineError[];
  created_at: Date | string;
  updated_at: Date | string;
  finished_at: Date | string | null;
}

/** The tenant's job; 404 NotFoundError for another tenant's or none. */
export async function findJob(knex: Knex, tenantId: string, id: string): Promise<JobView> {
  const [row] = (
    await knex.raw<{ rows: JobRow[] }>(
      `select id, kind, status, total, done, failed, created_at, updated_at, finished_at,
              coalesce((select jsonb_agg(jsonb_build_object('line', e.line, 'message', e.message) order by e.line)
                          from job_error e where e.job_id = job.id), '[]'::jsonb) as errors
         from job where id = ? and tenant_id = ?`,
      [id, tenantId],
    )
  ).rows;
  if (!row) throw new NotFoundError(`No job ${id}`);
  return jobView(row);
}

function jobView(row: JobRow): JobView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    total: row.total,
    done: row.done,
    failed: row.failed,
    errors: row.errors,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  };
}

export interface AdjustmentRunDependencies {
  orm: Orm;
  clock: Clock;
  batchSize?: number | undefined;
}

/** How many times a job is taken up before it is given up as `failed`: far more than its retries need. */
export const MAX_JOB_RUNS = 30;

/**
 * Works a job through from its cursor, a batch of lines per transaction: the job row locked (a
 * second runner of the same job waits, then starts where the first stopped), the batch's members
 * resolved in one query, its adjustments applied set-based (adjustInBulk), and the cursor, counts
 * and errors (job_error) moved in the same commit. A job finished already is left as it is.
 */
export async function runAdjustmentJob(deps: AdjustmentRunDependencies, data: PointsAdjustmentJob): Promise<void> {
  const knex = deps.orm.em.getKnex();
  // Counted before the work: a run that kills its worker (out of memory, say) never reaches its
  // catch, BullMQ fails it as stalled, and the recovery sweep queues it again; the count ends that.
  const [stored] = (
    await knex.raw<{ rows: { input: AdjustmentLine[]; actor: string; runs: number }[] }>(
      `update job set runs = runs + 1 where id = ? and tenant_id = ? and status in ('queued', 'running')
       returning input, actor, runs`,
      [data.jobId, data.tenantId],
    )
  ).rows;
  if (!stored) return;
  if (stored.runs > MAX_JOB_RUNS) return failAdjustmentJob(deps, data);
  const batchSize = Math.max(1, deps.batchSize ?? DEFAULT_ADJUSTMENT_BATCH);
  for (;;) {
    const more = await knex.transaction((trx) => applyBatch(trx, deps, data, stored, batchSize));
    if (!more) return;
  }
}

/** One batch from the job's cursor; resolves to whether lines are left. */
async function applyBatch(
  trx: Knex.Transaction,
  { orm, clock }: AdjustmentRunDependencies,
  { tenantId, jobId }: PointsAdjustmentJob,
  { input, actor }: { input: AdjustmentLine[]; actor: string },
  batchSize: number,
): Promise<boolean> {
  // The batch holds the job row and up to batchSize wallets: a worker lost without closing its
  // connection must not keep them for the kernel's two hours.
  await trx.raw(livenessStatement(true));
  const [job] = (
    await trx.raw<{ rows: { status: JobStatus; cursor: number }[] }>(
      'select status, cursor from job where id = ? and tenant_id = ? for update',
      [jobId, tenantId],
    )
  ).rows;
  if (!job || job.status === 'completed' || job.status === 'failed') return false;
  const start = job.cursor;
  const batch = input.slice(start, start + batchSize);
  const at = new Date(clock.now());
  // Members by id, authIdentifier or account number, as every member route finds them, in one query.
  const names = batch.map((line) => line.member);
  const found = await lookupUsers(orm.em.fork(), tenantId, names);
  const members = new Map(names.flatMap((name, index) => (found[index] ? [[name, found[index].id] as const] : [])));
  const errors: JobLineError[] = [];
  const adjustments: (BulkAdjustment & { line: number })[] = [];
  batch.forEach((line, index) => {
    const number = start + index + 1;
    const userId = members.get(line.member);
    if (!userId) errors.push({ line: number, message: `no member ${line.member} in the tenant` });
    else
      adjustments.push({
        line: number,
        entryId: lineEntryId(jobId, number),
        userId,
        points: line.points,
        reason: line.reason,
      });
  });
  const outcomes = await adjustInBulk(trx, tenantId, adjustments, { actor, jobId }, at);
  outcomes.forEach((outcome, index) => {
    if (!outcome.applied) errors.push({ line: adjustments[index]!.line, message: outcome.message });
  });
  errors.sort((a, b) => a.line - b.line);
  const cursor = start + batch.length;
  const finished = cursor >= input.length;
  if (errors.length > 0)
    await trx.raw(
      `insert into job_error (job_id, line, message)
       select ?, line, message from jsonb_to_recordset(?::jsonb) as e(line int, message text)
       on conflict (job_id, line) do nothing`,
      [jobId, JSON.stringify(errors)],
    );
  await trx.raw(
    `update job set cursor = ?, done = done + ?, failed = failed + ?, status = ?, updated_at = ?, finished_at = ?
      where id = ?`,
    [
      cursor,
      batch.length - errors.length,
      errors.length,
      finished ? 'completed' : 'running',
      at,
      finished ? at : null,
      jobId,
    ],
  );
  return !finished;
}

/** A job whose retries ran out: `failed`, with what it had done by then. */
export async function failAdjustmentJob(deps: AdjustmentRunDependencies, data: PointsAdjustmentJob): Promise<void> {
  const at = new Date(deps.clock.now());
  await deps.orm.em
    .getKnex()
    .raw(
      `update job set status = 'failed', updated_at = ?, finished_at = ? where id = ? and tenant_id = ? and status in ('queued', 'running')`,
      [at, at, data.jobId, data.tenantId],
    );
}

/**
 * The ledger entry id of line `line` of job `jobId`: a name-based uuid (version 5, the job's id as
 * its namespace), so a batch run again names the entries it made the first time.
 */
export function lineEntryId(jobId: string, line: number): string {
  const hash = createHash('sha1')
    .update(Buffer.from(jobId.replaceAll('-', ''), 'hex'))
    .update(String(line))
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Jobs a crash between their commit and their queueing left unqueued, or whose BullMQ job was
 * lost with Redis or failed for good before it could mark the row, queued again. A job still
 * waiting or running on its queue adds nothing: its BullMQ id is the row's.
 */
export async function recoverStrandedJobs(deps: { orm: Orm; queues: PointsAdjustmentQueue }, window: SweepWindow) {
  const stranded = await deps.orm.em
    .getKnex()
    .raw<{ rows: { id: string; tenant_id: string }[] }>(
      `select id, tenant_id from job where status in ('queued', 'running') and updated_at < ? order by updated_at limit ?`,
      [window.before, window.limit],
    );
  const queue = deps.queues['points-adjustments'];
  for (const job of stranded.rows) {
    await retryIfFailed(queue, pointsAdjustmentJobOptions(job.id).jobId);
    await queueAdjustmentJob(deps.queues, { tenantId: job.tenant_id, jobId: job.id });
  }
  return { jobs: stranded.rows.length };
}
