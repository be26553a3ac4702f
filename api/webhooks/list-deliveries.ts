import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { WebhookDelivery } from '../../shared/webhooks/webhook-delivery.entity.js';
import { findWebhook } from '../../shared/webhooks/webhook-service.js';
import { entityManager, type App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, DELIVERY_LIST, DeliveryResource, tags, WebhookIdParams } from './schema.js';

function deliveryView(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    createdAt: delivery.createdAt.toISOString(),
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
  };
}

export function registerListDeliveries(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    description: `The deliveries of one webhook (PENDING, SUCCEEDED or FAILED), each with every attempt: when, what your server answered or the error, and how long it took. ${LIST_PAGE}`,
    examples: {
      response: [
        {
          id: 'a3f4e2c1-7b6d-4e5f-9a8b-1c2d3e4f5a6b',
          eventId: 1042,
          eventType: 'PURCHASE',
          status: 'SUCCEEDED',
          attempts: [{ at: '2026-02-01T12:00:01.000Z', status: 200, error: null, durationMs: 84 }],
          createdAt: '2026-02-01T12:00:00.200Z',
          deliveredAt: '2026-02-01T12:00:01.084Z',
        },
      ],
    },
    summary: "A webhook's deliveries, each with every attempt",
    tags,
    access,
    params: WebhookIdParams,
    query: listQuery(DELIVERY_LIST),
    responses: { 200: { description: 'a page of deliveries', data: Type.Array(DeliveryResource) } },
    errors: [400, 404],
    handler: async ({ params, query }, c) => {
      const webhook = await findWebhook(entityManager(c), c.var.tenant.id, params.id);
      return listPage(c, WebhookDelivery, DELIVERY_LIST, query, deliveryView, { scope: { webhook: webhook.id } });
    },
  });
}
