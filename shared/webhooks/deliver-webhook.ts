import { UnrecoverableError } from 'bullmq';
import type { Counter } from 'prom-client';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Config } from '../platform/config/config.js';
import type { EntityManager, Orm } from '../platform/db/orm.js';
import { Event } from '../events/event.entity.js';
import { storedEventView } from '../events/event-view.js';
import { OutboundPoster } from '../platform/http/outbound-post.js';
import type { EventType } from '../event-types/event-type.entity.js';
import { storableText } from '../platform/json/unstorable-text.js';
import { WebhookDelivery, type DeliveryAttempt } from './webhook-delivery.entity.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import { Sealer } from '../platform/secrets/sealer.js';
import type { Webhook } from './webhook.entity.js';
import { webhookSecretContext } from './webhook-service.js';
import { signedHeaders } from './signed-headers.js';

export interface DeliveryDependencies {
  orm: Orm;
  poster: OutboundPoster;
  sealer: Sealer;
  serviceSubject: string;
  /** Attempts recorded, by outcome: succeeded, retrying (refused, another attempt follows), failed (for good). */
  attempts: Counter<'outcome'>;
}

/** What the webhooks worker delivers with, from the context. */
export function deliveryDependencies(context: {
  orm: Orm;
  config: Pick<Config, 'fetchAllowPrivateAddresses' | 'platformTokenSecret' | 'publicBaseUrl'>;
  metrics: Metrics;
}): DeliveryDependencies {
  return {
    orm: context.orm,
    poster: new OutboundPoster(context.config.fetchAllowPrivateAddresses),
    sealer: new Sealer(context.config.platformTokenSecret, 'webhook-secret'),
    serviceSubject: context.config.publicBaseUrl,
    attempts: deliveryAttemptCounter(context.metrics),
  };
}

function deliveryAttemptCounter(metrics: Metrics): Counter<'outcome'> {
  return metrics.counter({
    name: 'tally_webhook_deliveries_total',
    help: 'Webhook delivery attempts recorded, by outcome: succeeded, retrying (another attempt follows), failed (for good)',
    labelNames: ['outcome'],
  });
}

/** Thrown when the receiver did not take the delivery, so BullMQ retries it with backoff. */
export class DeliveryRefusedError extends Error {}

/**
 * One attempt of a delivery: the body of docs/events.md#webhooks
 * (`{type, timestamp, data: Event}`), signed with the Standard Webhooks scheme (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), posted, and the attempt recorded. Any 2xx settles it;
 * anything else is recorded and thrown for a retry, and on the last attempt the delivery is marked
 * FAILED.
 */
export async function deliverWebhook(
  deps: DeliveryDependencies,
  deliveryId: string,
  isLastAttempt: boolean,
): Promise<void> {
  const em = deps.orm.em.fork();
  const delivery = await em.findOne(WebhookDelivery, { id: deliveryId }, { populate: ['webhook'] });
  if (!delivery || delivery.status !== 'PENDING') return;
  // The job names the delivery alone; what it leads to is read within the delivery's tenant.
  const event = await em.findOne(
    Event,
    { tenant: delivery.tenant.id, id: delivery.eventId },
    { populate: ['type', 'user'] },
  );
  if (!event) return;

  const timestamp = new Date();
  const body = JSON.stringify({
    type: (event.type as EventType).name,
    timestamp: timestamp.toISOString(),
    data: storedEventView(event, deps.serviceSubject),
  });
  const webhook = delivery.webhook as Webhook;
  const secret = deps.sealer.open(webhook.secret, webhookSecretContext(webhook.id));
  if (secret === undefined) {
    // Sealed under a replaced PLATFORM_TOKEN_SECRET: no retry can sign it; the webhook needs a new secret.
    const error = 'the signing secret cannot be opened (PLATFORM_TOKEN_SECRET changed): create the webhook anew';
    await recordAttempt(em, delivery, { at: timestamp.toISOString(), status: null, error, durationMs: 0 }, 'FAILED');
    deps.attempts.inc({ outcome: 'failed' });
    throw new UnrecoverableError(`webhook ${webhook.id}: ${error}`);
  }
  const headers = signedHeaders(new StandardWebhook(secret), delivery.id, timestamp, body);

  const started = Date.now();
  let attempt: DeliveryAttempt;
  try {
    const response = await deps.poster.post(webhook.url, body, headers);
    attempt = {
      at: timestamp.toISOString(),
      status: response.status,
      error: response.status < 300 ? null : storableText(response.body.slice(0, 500)) || null,
      durationMs: Date.now() - started,
    };
  } catch (error) {
    attempt = {
      at: timestamp.toISOString(),
      status: null,
      error: storableText((error as Error).message),
      durationMs: Date.now() - started,
    };
  }
  const succeeded = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  await recordAttempt(em, delivery, attempt, succeeded ? 'SUCCEEDED' : isLastAttempt ? 'FAILED' : 'PENDING');
  // Each attempt is recorded once (a stalled job run again makes an attempt of its own, and records it).
  deps.attempts.inc({ outcome: succeeded ? 'succeeded' : isLastAttempt ? 'failed' : 'retrying' });
  if (!succeeded) throw new DeliveryRefusedError(`webhook ${webhook.id} answered ${attempt.status ?? attempt.error}`);
}

/**
 * Appends the attempt in PostgreSQL, not to the list this run read: two runs of one delivery (a
 * stalled job run again while the first still posts) each keep their attempt. A success settles
 * the delivery whatever another run recorded; a last failure ends only a delivery still pending.
 */
async function recordAttempt(
  em: EntityManager,
  delivery: WebhookDelivery,
  attempt: DeliveryAttempt,
  outcome: 'SUCCEEDED' | 'FAILED' | 'PENDING',
): Promise<void> {
  await em.getConnection().execute(
    `update webhook_delivery
        set attempts = attempts || jsonb_build_array(?::jsonb),
            status = case when ? = 'SUCCEEDED' then 'SUCCEEDED' when ? = 'FAILED' and status = 'PENDING' then 'FAILED' else status end,
            delivered_at = case when ? = 'SUCCEEDED' then coalesce(delivered_at, now()) else delivered_at end
      where tenant_id = ? and id = ?`,
    [JSON.stringify(attempt), outcome, outcome, outcome, delivery.tenant.id, delivery.id],
  );
}
