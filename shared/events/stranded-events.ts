import type { EntityManager } from '../platform/db/orm.js';
import type { SweepWindow } from '../platform/queues/stranded-work.js';
import { jobEvents, type EventsQueue } from './event-job.js';

/**
 * Ids of the rows of `table` (a cause that allocates its event id before queueing it: a review,
 * an order, a referral) whose event, the id in `column`, is not registered within the window: its
 * job was lost or failed for good.
 */
export async function idsWithUnregisteredEvents(
  em: EntityManager,
  table: 'receipt_review' | 'pos_order' | 'referral',
  window: SweepWindow,
  column: 'event_id' | 'registration_event_id' | 'completed_event_id' = 'event_id',
): Promise<string[]> {
  const rows = await em.getConnection().execute<{ id: string }[]>(
    `select t.id from ${table} t where t.${column} is not null and t.created_at >= ? and t.created_at < ?
        and not exists (select 1 from event e where e.id = t.${column}) order by t.created_at limit ${window.limit}`,
    [window.since, window.before],
  );
  return rows.map((row) => row.id);
}

/**
 * Retries the jobs of reported events that failed for good (answered 201, so recorded as accepted
 * until registered). Their registered events were forgotten as they went: a run again registers
 * only what is left.
 */
export async function retryFailedReportJobs(
  deps: { queues: EventsQueue },
  window: SweepWindow,
): Promise<{ reportJobs: number }> {
  const failed = (await deps.queues.events.getFailed(0, window.limit - 1)).filter(
    (job) => !jobEvents(job.data).claimedByJob,
  );
  for (const job of failed) await job.retry();
  return { reportJobs: failed.length };
}
