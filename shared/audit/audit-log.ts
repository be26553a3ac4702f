import { randomUUID } from 'node:crypto';
import { withTimeout } from '../async/with-timeout.js';
import type { EntityManager, Orm } from '../db/orm.js';
import type { Queues } from '../queues/queue-factory.js';
import { AuditEntry } from './audit-entry.entity.js';
import type { Actor, AuditJob } from './audit-job.js';
import type { Principal } from '../auth/principal.js';
import type { Logger } from '../logging/logger.js';

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

/** How long a change waits for Redis to take its audit job before recording the entry itself. */
const ENQUEUE_TIMEOUT_MS = 2000;

export interface AuditDependencies {
  queues: Queues;
  orm: Orm;
  logger: Logger;
}

/**
 * Puts an admin change, already committed, on the audit queue. The entry's id is chosen here and
 * doubles as the job id, so the same change added twice is one job, and a job run twice is one
 * row. When Redis does not take the job in time, the entry is written directly instead: the
 * change is done, so failing its request would hide a new secret or key from its caller, and
 * dropping the entry would lose the record of it; a job that lands late finds the row and adds
 * nothing.
 */
export async function enqueueAudit(deps: AuditDependencies, change: AdminChange): Promise<void> {
  const job: AuditJob = { id: randomUUID(), ...change, occurredAt: new Date().toISOString() };
  try {
    await withTimeout(deps.queues.audit.add('record', job, { jobId: job.id }), ENQUEUE_TIMEOUT_MS);
  } catch (error) {
    deps.logger.warn({ err: error, auditEntryId: job.id }, 'the audit queue did not take the entry: recording it directly');
    await recordAuditEntry(deps.orm.em.fork(), job);
  }
}

/** The audit worker's one job: insert the entry unless a previous delivery already did. */
export async function recordAuditEntry(em: EntityManager, job: AuditJob): Promise<void> {
  await em.upsert(
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
}
