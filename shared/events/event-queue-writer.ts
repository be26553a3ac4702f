import { Job, type Queue } from 'bullmq';
import type { Counter } from 'prom-client';
import type { Metrics } from '../platform/metrics/metrics.js';
import { Batcher } from '../platform/queues/batcher.js';
import type { AcceptedReports } from './accepted-reports.js';
import { DUPLICATE_WINDOW_MS } from './duplicate-window.js';
import { eventJobId, type EventBatch, type EventJob } from './event-job.js';

interface QueuedReport {
  job: EventJob;
  duplicateIdentity: string;
}

/**
 * More reports than this at once go out in several jobs. Under load a job gathered 17 on average;
 * the bound keeps one job, duplicates of the moment included, to 30 MB even at the 300 kB limit.
 */
const MAX_REPORTS_PER_JOB = 100;

/**
 * Puts accepted events on the events queue. Reports that arrive together (one turn of the event
 * loop: under load, many concurrent requests of any tenants) become one job, queued in one MULTI
 * with the script that claims their duplicate identities (accepted-reports.ts). Redis runs the two
 * with nothing in between, and neither when the connection drops before EXEC; when either fails at
 * run time, the call fails (the claims given back if the job was not added) and each report is
 * sent again alone. A report whose claim already holds its own event id counts as accepted, and
 * the worker registers an event id once, however many jobs carry it. One job and one claim script
 * for a batch, instead of BullMQ's add script per report, took most of Redis's work per report off
 * the hot path, and most of the worker's per-job work with it. A job of reports is removed once
 * done: nothing reads it afterwards, and it may hold a hundred payloads.
 */
export class EventQueueWriter {
  private readonly batcher: Batcher<QueuedReport, boolean>;
  private readonly reports: Counter<'outcome'>;

  constructor(
    private readonly queue: Queue,
    private readonly accepted: AcceptedReports,
    metrics: Metrics,
  ) {
    this.batcher = new Batcher((reports) => this.queueReports(reports), MAX_REPORTS_PER_JOB, 0);
    this.reports = metrics.counter({
      name: 'tally_event_reports_total',
      help: 'Reports of POST /v1/events that reached the duplicate check: accepted (queued) or refused as a duplicate',
      labelNames: ['outcome'],
    });
  }

  /** True when the report was queued; false when another report holds its identity in the window. */
  enqueue(job: EventJob, duplicateIdentity: string): Promise<boolean> {
    return this.batcher.add({ job, duplicateIdentity });
  }

  /**
   * Events the platform reports itself (queue-intrinsic-event.ts), each as a job of its own whose
   * id comes from the event's: reporting it again while the job exists queues nothing, and the
   * recovery sweep finds the job by the event id. Its duplicate window is keyed by that id too.
   * Events reported together (a referral's two) are added in one round trip.
   */
  async enqueueIntrinsic(jobs: EventJob[]): Promise<void> {
    await this.queue.addBulk(
      jobs.map((job) => ({
        name: 'register',
        data: { events: [job] } satisfies EventBatch,
        opts: {
          jobId: eventJobId(job.id),
          deduplication: { id: `${job.tenantId}:intrinsic:${job.id}`, ttl: DUPLICATE_WINDOW_MS },
        },
      })),
    );
  }

  /** `reloaded`: the scripts were just loaded again after NOSCRIPT; a second NOSCRIPT fails the call. */
  private async queueReports(reports: QueuedReport[], reloaded = false): Promise<boolean[]> {
    const transaction = await this.accepted.begin();
    const claims = reports.map(({ job, duplicateIdentity }) => ({
      eventId: job.id,
      tenantId: job.tenantId,
      duplicateIdentity,
    }));
    this.accepted.claim(transaction, claims);
    const batch: EventBatch = { events: reports.map((report) => report.job) };
    // Job.addJob on a MULTI is how BullMQ's own flows add jobs atomically with other commands. It
    // queues its command at once; waiting for it before EXEC lets a job whose options BullMQ refuses
    // discard the MULTI before anything is sent.
    await new Job(this.queue, 'register', batch, { ...this.queue.defaultJobOptions, removeOnComplete: true }).addJob(
      transaction,
    );
    const results = await transaction.exec();
    if (!results) throw new Error('the events queue transaction was discarded');
    if (!reloaded && results.some(([error]) => error?.message.startsWith('NOSCRIPT'))) {
      // Redis lost its scripts under an open connection. Whatever part of the MULTI ran is safe to
      // repeat: a claim holds again for the same event ids, and the worker registers an event id
      // once, however many jobs carry it.
      await this.accepted.reloadScripts();
      return this.queueReports(reports, true);
    }
    const [[claimError, answers], [addError, added]] = results as [[Error | null, number[]], [Error | null, unknown]];
    if (claimError) throw claimError;
    // BullMQ's add script answers a negative code instead of the job id when it refuses the job.
    const refused =
      addError ??
      (typeof added === 'number' && added < 0
        ? new Error(`the events queue refused the job (code ${added})`)
        : undefined);
    if (refused) {
      // Should Redis fail this too, the claims stay and lapse with the window: the refusal is what to report.
      await this.accepted.release(claims.filter((_, index) => answers[index] === 1)).catch(() => undefined);
      throw refused;
    }
    // Counted once Redis ran the claims and the job together: a report sent again after a failure
    // here was not counted the first time.
    const acceptedCount = answers.filter((answer) => answer === 1).length;
    this.reports.inc({ outcome: 'accepted' }, acceptedCount);
    this.reports.inc({ outcome: 'duplicate' }, answers.length - acceptedCount);
    return answers.map((answer) => answer === 1);
  }
}
