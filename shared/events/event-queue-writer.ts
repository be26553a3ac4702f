import type { Queue } from 'bullmq';
import { Batcher } from '../queues/batcher.js';
import { DUPLICATE_WINDOW_MS } from './duplicate-window.js';
import { eventJobId, type EventJob } from './event-job.js';

interface QueuedReport {
  job: EventJob;
  duplicateIdentity: string;
}

/** More adds than this in one turn of the event loop go out in several pipelines. */
const MAX_PIPELINE = 500;

/**
 * Puts accepted reports on the events queue. Reports that arrive together (one turn of the event
 * loop, under load many concurrent requests) go to Redis in one pipeline (`addBulk`) instead of one
 * round trip each. Each add carries BullMQ's deduplication with a fixed 60-second window
 * (STACK.md), so claiming the report's identity and queueing it are one atomic Redis script:
 * a duplicate gets back the id of the job that holds the identity, not its own. An add repeated
 * after a failed pipeline finds its own job id there and counts as accepted.
 */
export class EventQueueWriter {
  private readonly batcher: Batcher<QueuedReport, boolean>;

  constructor(queue: Queue) {
    this.batcher = new Batcher(
      async (reports) => {
        const jobs = await queue.addBulk(
          reports.map(({ job, duplicateIdentity }) => ({
            name: 'register',
            data: job,
            opts: { jobId: eventJobId(job.id), deduplication: { id: duplicateIdentity, ttl: DUPLICATE_WINDOW_MS } },
          })),
        );
        return jobs.map((queued, index) => queued.id === eventJobId(reports[index]!.job.id));
      },
      MAX_PIPELINE,
      0,
    );
  }

  /** True when the report was queued; false when another report holds its identity in the window. */
  enqueue(job: EventJob, duplicateIdentity: string): Promise<boolean> {
    return this.batcher.add({ job, duplicateIdentity });
  }
}
