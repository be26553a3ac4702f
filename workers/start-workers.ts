import type { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { withTimeout } from '../shared/platform/async/with-timeout.js';
import type { AppContext } from '../shared/context.js';
import { queueCatalog, type JobHandler, type QueueName } from '../shared/job-catalog.js';
import { startWorker, type WorkerDependencies } from '../shared/platform/queues/worker-runner.js';
import { auditHandler } from './audit.js';
import { eventsHandler } from './events.js';
import { ocrHandler } from './ocr.js';
import { partnerOrdersHandler } from './partner-orders.js';
import { pointsExpiryHandler } from './points-expiry.js';
import { pointsAdjustmentsHandler } from './points-adjustments.js';
import { recoveryHandler } from './recovery.js';
import { reviewsHandler } from './reviews.js';
import { webhooksHandler } from './webhooks.js';

/** Which handler runs each queue's jobs; every queue of the catalog has one, built only when its worker starts. */
const HANDLERS: { [Q in QueueName]: (context: AppContext) => JobHandler<Q> } = {
  audit: auditHandler,
  events: eventsHandler,
  webhooks: webhooksHandler,
  ocr: ocrHandler,
  reviews: reviewsHandler,
  'partner-orders': partnerOrdersHandler,
  'points-adjustments': pointsAdjustmentsHandler,
  recovery: recoveryHandler,
  'points-expiry': pointsExpiryHandler,
};

export function startWorkers(context: AppContext, queues: readonly QueueName[]): Worker[] {
  return queues.map((name) => startQueueWorker(name, context));
}

/** One queue's worker, its handler typed by the queue's payload. */
function startQueueWorker<Q extends QueueName>(name: Q, context: AppContext): Worker {
  const handler = HANDLERS[name] as (context: AppContext) => JobHandler<Q>;
  return startWorker(name, queueCatalog[name], handler(context), workerDependencies(context));
}

export function workerDependencies(context: AppContext): WorkerDependencies {
  return {
    redisUrl: context.config.redisUrl,
    redisPrefix: context.config.redisPrefix,
    lockMs: context.config.workerLockMs,
    stalledCheckMs: context.config.workerStalledCheckMs,
    logger: context.logger,
    redisConnections: context.redisConnections,
    metrics: context.metrics,
  };
}

/**
 * How long a worker may take to close by default. BullMQ's close waits for its blocking connection
 * to end, and a connection that Redis dropped can wait for that for ever (taskforcesh/bullmq#4656):
 * past this, the worker is left to the process's exit, and a job it still held runs again
 * elsewhere once its lock lapses.
 */
export const WORKER_CLOSE_GRACE_MS = 15_000;

/** Which workers closed, which did not within the grace, and which were not waited for as their Redis is away. */
export type WorkersClosed = Record<'closed' | 'late' | 'away', string[]>;

/**
 * Waits for the jobs in hand to finish, takes no more, and closes the workers' connections, within
 * `graceMs`; the workers that did not close are left to the process's exit. A worker whose Redis
 * is away is not waited for: a job it holds could not be marked done anyway. Either way a job left
 * unfinished stays active in Redis and runs again once its lock lapses, which loses nothing as
 * every job is idempotent (docs/operations.md#shutdown).
 */
export async function closeWorkers(workers: Worker[], graceMs = WORKER_CLOSE_GRACE_MS): Promise<WorkersClosed> {
  const outcomes = await Promise.all(workers.map((worker) => closeWorker(worker, graceMs)));
  const closed: WorkersClosed = { closed: [], late: [], away: [] };
  workers.forEach((worker, index) => closed[outcomes[index]!].push(worker.name));
  return closed;
}

async function closeWorker(worker: Worker, graceMs: number): Promise<keyof WorkersClosed> {
  const away = redisAway(worker);
  const outcome = await Promise.race([
    withTimeout(worker.close(), graceMs).then(
      () => 'closed' as const,
      () => 'late' as const,
    ),
    away.promise,
  ]);
  away.cancel();
  return outcome;
}

/** Resolves to 'away' once the worker's own connection does not reach Redis (at once if it does not now). */
function redisAway(worker: Worker): { promise: Promise<'away'>; cancel: () => void } {
  const connection = worker.opts?.connection as Redis | undefined;
  if (!(connection instanceof Redis)) return { promise: new Promise(() => {}), cancel: () => {} };
  let cancel = () => {};
  const promise = new Promise<'away'>((resolve) => {
    if (connection.status !== 'ready') return resolve('away');
    const onClose = () => resolve('away');
    connection.once('close', onClose);
    cancel = () => connection.off('close', onClose);
  });
  return { promise, cancel };
}
