import { Job, type Queue } from 'bullmq';
import { Batcher } from '../queues/batcher.js';
import type { AcceptedReports } from './accepted-reports.js';
import { DUPLICATE_WINDOW_MS } from './duplicate-window.js';
import { eventJobId, type EventBatch, type EventJob } from './event-job.js';

interface QueuedReport {
  job: EventJob;
  duplicateIdentity: string;
}

/** More reports than this in one turn of the event loop go out in several jobs. */
const MAX_REPORTS_PER_JOB = 500;

/**
 * Puts accepted events on the events queue. A tenant's reports that arrive together (one turn of
 * the event loop: under load, many concurrent requests) become one job, queued in one MULTI with
 * the script that claims their duplicate identities (accepted-reports.ts): Redis runs both or
 * neither, so a report is either accepted and queued or a duplicate, never claimed but lost. One
 * job and one claim script for a whole batch, instead of BullMQ's add script per report, took
 * most of Redis's work per report off the hot path, and most of the worker's per-job work with it.
 * When the MULTI fails (its answer lost), each report is sent again alone: a report whose claim
 * already holds its own event id counts as accepted, and the worker registers an event id once.
 */
export class EventQueueWriter {
  private readonly batcher: Batcher<QueuedReport, boolean>;

  constructor(
    private readonly queue: Queue,
    private readonly accepted: AcceptedReports,
  ) {
    this.batcher = new Batcher((reports) => this.queueReports(reports), MAX_REPORTS_PER_JOB, 0, 1);
  }

  /** True when the report was queued; false when another report holds its identity in the window. */
  enqueue(job: EventJob, duplicateIdentity: string): Promise<boolean> {
    return this.batcher.add({ job, duplicateIdentity });
  }

  /**
   * An event the platform reports itself (queue-intrinsic-event.ts), as a job of its own whose id
   * comes from the event's: reporting it again while the job exists queues nothing, and the
   * recovery sweep finds the job by the event id. Its duplicate window is keyed by that id too.
   */
  async enqueueIntrinsic(job: EventJob): Promise<void> {
    const batch: EventBatch = { events: [job] };
    await this.queue.add('register', batch, { jobId: eventJobId(job.id), deduplication: { id: `${job.tenantId}:intrinsic:${job.id}`, ttl: DUPLICATE_WINDOW_MS } });
  }

  private async queueReports(reports: QueuedReport[]): Promise<boolean[]> {
    const transaction = await this.accepted.begin();
    this.accepted.claim(
      transaction,
      reports.map(({ job, duplicateIdentity }) => ({ eventId: job.id, tenantId: job.tenantId, duplicateIdentity })),
    );
    const batch: EventBatch = { events: reports.map((report) => report.job) };
    // Job.addJob on a MULTI is how BullMQ's own flows add jobs atomically with other commands. It
    // queues its command at once; waiting for it before EXEC lets a refused job discard the MULTI.
    await new Job(this.queue, 'register', batch, this.queue.defaultJobOptions).addJob(transaction);
    const results = await transaction.exec();
    if (!results) throw new Error('the events queue transaction was discarded');
    for (const [error] of results) if (error) throw error;
    return (results[0]![1] as number[]).map((answer) => answer === 1);
  }
}
