import type { AuditQueue } from './audit-job.js';
import type { Orm } from '../platform/db/orm.js';
import { retryIfFailed, type SweepWindow } from '../platform/queues/stranded-work.js';
import { AuditOutbox } from './audit-outbox.entity.js';
import { addAuditJob } from './audit-log.js';

/** Admin changes whose audit entry is still in the outbox, queued again under the entry's own id (one still waiting adds nothing). */
export async function recoverAuditOutbox(deps: { orm: Orm; queues: AuditQueue }, window: SweepWindow) {
  const em = deps.orm.em.fork();
  const unaudited = await em.find(
    AuditOutbox,
    { createdAt: { $lt: window.before } },
    { orderBy: { createdAt: 'asc' }, limit: window.limit },
  );
  for (const staged of unaudited) {
    await retryIfFailed(deps.queues.audit, staged.id);
    await addAuditJob(deps.queues, staged.job);
  }
  return { auditEntries: unaudited.length };
}
