import { randomUUID } from 'node:crypto';
import { bigintArray } from '../platform/db/bigint-array.js';
import type { Orm } from '../platform/db/orm.js';
import { deliveryJobOptions, type WebhookJob, type WebhookQueue } from './webhook-job.js';
import { takesEventType, type WebhookSubscriptions } from './webhook-subscriptions.js';

export interface DispatchDependencies {
  orm: Orm;
  subscriptions: WebhookSubscriptions;
  queues: WebhookQueue;
  /** The first retry's delay; unset, the default schedule over 24 h. */
  retryBaseMs: number | undefined;
}

export interface DispatchedEvent {
  id: number;
  tenantId: string;
  eventTypeName: string;
  /** The webhooks its WEBHOOK reactions name (docs/events.md#reactions), whatever types they list. */
  webhookIds: string[];
}

/**
 * The event worker's asynchronous reactions: one delivery per (webhook, event), for each active
 * webhook that takes the event's type and each that a WEBHOOK reaction names, stored first and
 * then queued. Running it twice is harmless: the delivery row is unique per webhook and
 * event, every still-pending delivery is (re)queued under a job id of its own, and the webhook
 * worker skips deliveries already settled.
 */
export async function dispatchWebhooks(deps: DispatchDependencies, events: DispatchedEvent[]): Promise<void> {
  const tenantIds = [...new Set(events.map((event) => event.tenantId))];
  const webhooks = (await Promise.all(tenantIds.map((tenantId) => deps.subscriptions.forTenant(tenantId)))).flat();
  const rows = events.flatMap((event) => {
    const subscribed = webhooks
      .filter((webhook) => webhook.tenant.id === event.tenantId && takesEventType(webhook, event.eventTypeName))
      .map((webhook) => webhook.id);
    return [...new Set([...subscribed, ...event.webhookIds])].map((webhookId) => ({
      id: randomUUID(),
      tenant_id: event.tenantId,
      webhook_id: webhookId,
      event_id: event.id,
      event_type: event.eventTypeName,
    }));
  });
  if (rows.length === 0) return;
  const knex = deps.orm.em.getKnex();
  // The subscriptions and reactors may be a little old (another process changed them): a webhook
  // deleted or deactivated since gets no delivery, rather than failing the batch on its foreign
  // key, and only a webhook of the event's own tenant gets one.
  await knex.raw(
    `insert into webhook_delivery (id, tenant_id, webhook_id, event_id, event_type, status, attempts, created_at)
     select d.id, d.tenant_id, d.webhook_id, d.event_id, d.event_type, 'PENDING', '[]'::jsonb, now()
       from jsonb_to_recordset(?::jsonb) as d(id uuid, tenant_id uuid, webhook_id uuid, event_id bigint, event_type text)
       join webhook w on w.id = d.webhook_id and w.tenant_id = d.tenant_id and w.is_active
     on conflict (webhook_id, event_id) do nothing`,
    [JSON.stringify(rows)],
  );
  // Each event's deliveries within the event's own tenant.
  const dispatched = [...new Map(rows.map((row) => [row.event_id, row.tenant_id]))];
  const pending: { id: string }[] = await knex('webhook_delivery')
    .select('id')
    .whereRaw('(tenant_id, event_id) in (select * from unnest(?::uuid[], ?::bigint[]))', [
      dispatched.map(([, tenantId]) => tenantId),
      bigintArray(dispatched.map(([eventId]) => eventId)),
    ])
    .andWhere('status', 'PENDING');
  await deps.queues.webhooks.addBulk(
    pending.map(({ id }) => ({
      name: 'deliver',
      data: { deliveryId: id } satisfies WebhookJob,
      opts: deliveryJobOptions(id, deps.retryBaseMs),
    })),
  );
}
