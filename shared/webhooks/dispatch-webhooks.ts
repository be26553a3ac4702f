import { randomUUID } from 'node:crypto';
import { bigintArray } from '../db/bigint-array.js';
import type { Orm } from '../db/orm.js';
import type { Queues } from '../queues/queue-factory.js';
import { deliveryJobId, WEBHOOK_ATTEMPTS, type WebhookJob } from './webhook-job.js';
import type { WebhookSubscriptions } from './webhook-subscriptions.js';

export interface DispatchDependencies {
  orm: Orm;
  subscriptions: WebhookSubscriptions;
  queues: Queues;
  retryBaseMs: number;
}

export interface DispatchedEvent {
  id: number;
  tenantId: string;
  eventTypeName: string;
}

/**
 * The event worker's asynchronous reactions: one delivery per (subscribed webhook, event), stored
 * first and then queued. Running it twice is harmless: the delivery row is unique per webhook and
 * event, every still-pending delivery is (re)queued under a job id of its own, and the webhook
 * worker skips deliveries already settled.
 */
export async function dispatchWebhooks(deps: DispatchDependencies, events: DispatchedEvent[]): Promise<void> {
  const tenantIds = [...new Set(events.map((event) => event.tenantId))];
  const webhooks = (await Promise.all(tenantIds.map((tenantId) => deps.subscriptions.forTenant(tenantId)))).flat();
  if (webhooks.length === 0) return;
  const rows = events.flatMap((event) =>
    webhooks
      .filter((webhook) => webhook.tenant.id === event.tenantId && (webhook.eventTypes.length === 0 || webhook.eventTypes.includes(event.eventTypeName)))
      .map((webhook) => ({
        id: randomUUID(),
        tenant_id: event.tenantId,
        webhook_id: webhook.id,
        event_id: event.id,
        event_type: event.eventTypeName,
        status: 'PENDING',
        attempts: JSON.stringify([]),
        created_at: new Date(),
      })),
  );
  if (rows.length === 0) return;
  const knex = deps.orm.em.getKnex();
  await knex.insert(rows).into('webhook_delivery').onConflict(['webhook_id', 'event_id']).ignore();
  const pending: { id: string }[] = await knex('webhook_delivery')
    .select('id')
    .whereRaw('event_id = any(?::bigint[])', [bigintArray([...new Set(rows.map((row) => row.event_id))])])
    .andWhere('status', 'PENDING');
  await deps.queues.webhooks.addBulk(
    pending.map(({ id }) => ({
      name: 'deliver',
      data: { deliveryId: id } satisfies WebhookJob,
      opts: { jobId: deliveryJobId(id), attempts: WEBHOOK_ATTEMPTS, backoff: { type: 'exponential', delay: deps.retryBaseMs } },
    })),
  );
}
