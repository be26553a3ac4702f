import type { AppContext } from '../shared/context.js';
import { OutboundPoster } from '../shared/platform/http/outbound-post.js';
import { Sealer } from '../shared/platform/secrets/sealer.js';
import type { JobHandler } from '../shared/job-catalog.js';
import { isLastAttempt } from '../shared/platform/queues/worker-runner.js';
import { deliverWebhook } from '../shared/webhooks/deliver-webhook.js';

/** `webhooks` jobs: one delivery attempt each; a refusal throws and BullMQ retries with backoff. */
export function webhooksHandler(context: AppContext): JobHandler<'webhooks'> {
  const dependencies = {
    orm: context.orm,
    poster: new OutboundPoster(context.config.fetchAllowPrivateAddresses),
    sealer: new Sealer(context.config.platformTokenSecret, 'webhook-secret'),
    serviceSubject: context.config.publicBaseUrl,
  };
  return (data, job) => deliverWebhook(dependencies, data.deliveryId, isLastAttempt(job));
}
