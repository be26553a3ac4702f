import type { Static } from 'typebox';
import { AuditJob } from './audit/audit-job.js';
import { EventsJobData } from './events/event-job.js';
import { PointsAdjustmentJob } from './jobs/points-adjustment-job.js';
import { ReceiptJob } from './receipts/receipt-job.js';
import { PointsExpiryJob } from './ledger/points-expiry-job.js';
import { RecoveryJob } from './recovery/recovery-job.js';
import { PartnerOrderJob } from './rewards/partner-order-job.js';
import { WebhookJob } from './webhooks/webhook-job.js';
import type { QueueDefinition, QueuesOf } from './platform/queues/queue-factory.js';
import type { JobProcessor } from './platform/queues/worker-runner.js';

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Retried with a backoff that doubles from `delay` ms, `attempts` times in all. */
const retried = (attempts: number, delay: number) => ({ attempts, backoff: { type: 'exponential' as const, delay } });

/**
 * Completed jobs kept `age` seconds and `count` at most (what a waiting request reads back, and
 * the queue's history); a failed one a week, for an operator to look at and retry.
 */
const kept = (age: number, count: number) => ({
  removeOnComplete: { age, count },
  removeOnFail: { age: 7 * DAY },
});

/** A sweep that fails is simply the next one's work: no retries, little history. */
const SWEEP = { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } };

/**
 * Every queue and what its jobs carry, in one place (docs/architecture.md#rules-the-code-keeps). A payload that fails its
 * schema is unrecoverable; anything else thrown is retried with the backoff below.
 */
export const queueCatalog = {
  audit: {
    payload: AuditJob,
    concurrency: 16,
    defaultJobOptions: { ...retried(12, 1000), ...kept(HOUR, 10_000) },
  },
  events: {
    payload: EventsJobData,
    // High so the worker's batcher sees many events at once and registers them in one transaction:
    // an intrinsic event's job holds one, a job of reports up to a hundred.
    concurrency: 512,
    // The history of intrinsic events' jobs; a job of reports is removed once done (event-queue-writer.ts).
    defaultJobOptions: { ...retried(20, 500), ...kept(HOUR, 100_000) },
  },
  webhooks: {
    payload: WebhookJob,
    // Mostly waiting on receivers: many at once cost little.
    concurrency: 64,
    // Attempts and backoff are set per delivery when it is queued (dispatch-webhooks.ts).
    defaultJobOptions: kept(DAY, 100_000),
  },
  ocr: {
    payload: ReceiptJob,
    // Mostly fetching: reads queue on the process's one reader, one read at a time (paddle-reader.ts;
    // tesseract.js queues on its one recognizer), so many jobs at once cost the cores no more than
    // one read does, and a slow image host holds one slot of many. Each tenant may hold a few of
    // them (workers/ocr.ts).
    concurrency: 16,
    defaultJobOptions: { ...retried(5, 2000), ...kept(DAY, 100_000) },
  },
  reviews: {
    payload: ReceiptJob,
    concurrency: 32,
    // A completed review keeps the decision it returned to the waiting POST /receipts (about a
    // kilobyte): fewer are kept than of other queues. A review queued again after its job is
    // gone runs again and finds its stored review.
    defaultJobOptions: { ...retried(10, 500), ...kept(HOUR, 10_000) },
  },
  'partner-orders': {
    payload: PartnerOrderJob,
    // Mostly waiting on partners: many at once cost little.
    concurrency: 32,
    // Attempts and backoff are set per order when it is queued (partner-order-job.ts). A completed
    // job keeps the small outcome it returned to a waiting POST /purchases.
    defaultJobOptions: kept(DAY, 100_000),
  },
  'points-adjustments': {
    payload: PointsAdjustmentJob,
    // Each job holds up to 100,000 lines and works them a batch per transaction: a few at once
    // keep the database's writers for the rest.
    concurrency: 2,
    // A retry goes on from the last batch committed (docs/points.md#bulk-adjustments).
    defaultJobOptions: { ...retried(10, 1000), ...kept(DAY, 10_000) },
  },
  recovery: {
    payload: RecoveryJob,
    concurrency: 1,
    defaultJobOptions: SWEEP,
  },
  'points-expiry': {
    payload: PointsExpiryJob,
    // One sweep at a time per worker; across replicas the sweep's own lock lets one run at a time.
    concurrency: 1,
    // A sweep that fails leaves its uncommitted batch to the next one, which redoes it exactly once.
    defaultJobOptions: SWEEP,
  },
} satisfies Record<string, QueueDefinition>;

export type QueueName = keyof typeof queueCatalog;

/** What a job of queue `Q` carries, typed from its payload schema: a handler reads it with no cast. */
export type JobData<Q extends QueueName> = Static<(typeof queueCatalog)[Q]['payload']>;

/** Runs one job of queue `Q`, its payload typed from the catalog. */
export type JobHandler<Q extends QueueName> = JobProcessor<JobData<Q>>;

/** Every queue of the catalog, each typed by its payload. */
export type Queues = QueuesOf<typeof queueCatalog>;
export const queueNames = Object.keys(queueCatalog) as QueueName[];

export function isQueueName(name: string): name is QueueName {
  return Object.hasOwn(queueCatalog, name);
}
