import type { Worker } from 'bullmq';
import { withTimeout } from '../shared/platform/async/with-timeout.js';
import type { AppContext } from '../shared/context.js';
import { queueCatalog, type JobHandler, type QueueName } from '../shared/job-catalog.js';
import { startWorker, type WorkerDependencies } from '../shared/platform/queues/worker-runner.js';
import { auditHandler } from './audit.js';
import { eventsHandler } from './events.js';
import { ocrHandler } from './ocr.js';
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
  recovery: recoveryHandler,
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
    logger: context.logger,
    metrics: context.metrics,
  };
}

/**
 * How long a worker may take to close. BullMQ's close waits for its blocking connection to end,
 * and a connection that Redis dropped can wait for that for ever (taskforcesh/bullmq#4656): past
 * this, the worker is left to the process's exit, and a job it still held runs again elsewhere
 * once its lock lapses.
 */
export const WORKER_CLOSE_GRACE_MS = 15_000;

/** Waits for the jobs in hand to finish, takes no more, and closes the workers' connections, within `graceMs`. */
export async function closeWorkers(workers: Worker[], graceMs = WORKER_CLOSE_GRACE_MS): Promise<void> {
  await Promise.all(
    workers.map((worker) =>
      withTimeout(worker.close(), graceMs).catch(() => {
        worker.emit(
          'error',
          new Error(`the ${worker.name} worker did not close within ${graceMs} ms: left to the process's exit`),
        );
      }),
    ),
  );
}
