import type { AppContext } from '../shared/context.js';
import type { JobHandler } from '../shared/job-catalog.js';
import { isLastAttempt } from '../shared/platform/queues/worker-runner.js';
import { deliverWebhook, deliveryDependencies } from '../shared/webhooks/deliver-webhook.js';

/** `webhooks` jobs: one delivery attempt each; a refusal throws and BullMQ retries with backoff. */
export function webhooksHandler(context: AppContext): JobHandler<'webhooks'> {
  const dependencies = deliveryDependencies(context);
  return (data, job) => deliverWebhook(dependencies, data.deliveryId, isLastAttempt(job));
}
