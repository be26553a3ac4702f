import type { Worker } from 'bullmq';
import type { AppContext } from '../shared/context.js';
import type { QueueName } from '../shared/queues/catalog.js';
import { startWorker, type JobHandler } from '../shared/queues/worker-runner.js';
import { auditHandler } from './audit.js';
import { eventsHandler } from './events.js';
import { ocrHandler } from './ocr.js';
import { recoveryHandler } from './recovery.js';
import { reviewsHandler } from './reviews.js';
import { webhooksHandler } from './webhooks.js';

/** Which handler runs each queue's jobs; every queue of the catalog has one. */
function handlers(context: AppContext): Record<QueueName, JobHandler> {
  return {
    audit: auditHandler(context),
    events: eventsHandler(context),
    webhooks: webhooksHandler(context),
    ocr: ocrHandler(context),
    reviews: reviewsHandler(context),
    recovery: recoveryHandler(context),
  };
}

export function startWorkers(context: AppContext, queues: readonly QueueName[]): Worker[] {
  const byQueue = handlers(context);
  return queues.map((name) =>
    startWorker(name, byQueue[name], {
      redisUrl: context.config.redisUrl,
      redisPrefix: context.config.redisPrefix,
      lockMs: context.config.workerLockMs,
      logger: context.logger,
      metrics: context.metrics,
    }),
  );
}

/** Waits for the jobs in hand to finish, takes no more, and closes the workers' connections. */
export async function closeWorkers(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((worker) => worker.close()));
}
