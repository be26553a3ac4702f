import { randomUUID } from 'node:crypto';
import type { Clock } from '../platform/async/clock.js';
import { withTimeout } from '../platform/async/with-timeout.js';
import type { EntityManager } from '../platform/db/orm.js';
import { AuditEntry } from './audit-entry.entity.js';
import { AuditOutbox } from './audit-outbox.entity.js';
import type { Actor, AuditJob, AuditQueue } from './audit-job.js';
import type { Principal } from '../platform/auth/principal.js';
import type { Logger } from '../platform/logging/logger.js';

export interface AdminChange {
  tenantId: string;
  actor: Actor;
  action: string;
  resourceType: string;
  resourceId: string;
  /** Representations without secrets: callers pass the public view of the resource. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The actor of a change made through the API: the admin token's subject and scopes. */
export function actorOf(principal: Principal | undefined): Actor {
  if (principal?.kind === 'admin') return { subject: principal.subject, scopes: principal.scopes };
  return { subject: principal?.kind === 'user' ? principal.authIdentifier : 'anonymous', scopes: [] };
}

/** How long a change waits for Redis to take its audit job before leaving it to the recovery sweep. */
export const ENQUEUE_TIMEOUT_MS = 2000;

export interface AuditDependencies {
  /** Only the audit queue is used: the CLI opens that one alone. */
  queues: AuditQueue;
  logger: Logger;
  /** What the enqueue timeout is measured on, and the time a change is recorded as made. */
  clock: Clock;
}

/**
 * Makes an admin change and stages its audit entry in the same PostgreSQL transaction (the
 * transactional outbox, audit-outbox.entity.ts), then puts the entry on the audit queue. The
 * entry's id is chosen here and doubles as the job id, so the same entry queued twice is one job,
 * and a job run twice is one row. A change that fails stages nothing; a change that commits is
 * audited even if this process dies before the job is queued, or Redis does not take it: the
 * recovery sweep queues what the outbox still holds. `describe` says what changed, from what
 * `change` answered, with secrets left out, or `undefined` when nothing changed (a retried create
 * that found its record made by the first try), which stages nothing.
 */
export async function auditedChange<T>(
  deps: AuditDependencies,
  em: EntityManager,
  change: (em: EntityManager) => Promise<T>,
  describe: (result: T) => AdminChange | undefined,
): Promise<T> {
  let job: AuditJob | undefined;
  const result = await em.transactional(async (transaction) => {
    const done = await change(transaction);
    const described = describe(done);
    if (!described) return done;
    job = { id: randomUUID(), ...described, occurredAt: new Date(deps.clock.now()).toISOString() };
    transaction.create(AuditOutbox, { id: job.id, tenant: job.tenantId, job, createdAt: new Date(job.occurredAt) });
    return done;
  });
  if (job) await queueAuditJob(deps, job);
  return result;
}

/**
 * Puts a staged entry on the audit queue. When Redis does not take it in time the change still
 * succeeds, as it is done: failing its request would hide a new secret or key from its caller.
 */
async function queueAuditJob(deps: AuditDependencies, job: AuditJob): Promise<void> {
  try {
    await withTimeout(addAuditJob(deps.queues, job), ENQUEUE_TIMEOUT_MS, deps.clock);
  } catch (error) {
    deps.logger.warn(
      { err: error, auditEntryId: job.id },
      'the audit queue did not take the entry: the recovery sweep will queue it',
    );
  }
}

/** Puts an entry on the audit queue under its own id: one still waiting there is not added twice. */
export async function addAuditJob(queues: AuditQueue, job: AuditJob): Promise<void> {
  await queues.audit.add('record', job, { jobId: job.id });
}

/** The audit worker's one job: insert the entry unless a previous delivery already did, and empty its place in the outbox. */
export async function recordAuditEntry(em: EntityManager, job: AuditJob): Promise<void> {
  await em.transactional(async (transaction) => {
    await transaction.upsert(
      AuditEntry,
      {
        id: job.id,
        tenant: job.tenantId,
        actorSubject: job.actor.subject,
        actorScopes: job.actor.scopes,
        action: job.action,
        resourceType: job.resourceType,
        resourceId: job.resourceId,
        before: job.before,
        after: job.after,
        occurredAt: new Date(job.occurredAt),
        recordedAt: new Date(),
      },
      { onConflictFields: ['id'], onConflictAction: 'ignore' },
    );
    await transaction.nativeDelete(AuditOutbox, { tenant: job.tenantId, id: job.id });
  });
}
