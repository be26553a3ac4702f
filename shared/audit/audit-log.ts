import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../db/orm.js';
import type { Queues } from '../queues/queue-factory.js';
import { AuditEntry } from './audit-entry.entity.js';
import type { Actor, AuditJob } from './audit-job.js';
import type { Principal } from '../auth/principal.js';

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

/**
 * Puts an admin change on the audit queue. The entry's id is chosen here and doubles as the job
 * id, so the same change added twice is one job, and a job run twice is one row.
 */
export async function enqueueAudit(queues: Queues, change: AdminChange): Promise<void> {
  const job: AuditJob = { id: randomUUID(), ...change, occurredAt: new Date().toISOString() };
  await queues.audit.add('record', job, { jobId: job.id });
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
