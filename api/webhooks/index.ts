import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { Sealer } from '../../shared/platform/secrets/sealer.js';
import { WebhookDelivery } from '../../shared/webhooks/webhook-delivery.entity.js';
import { Webhook } from '../../shared/webhooks/webhook.entity.js';
import { createWebhook, deleteWebhook, findWebhook, updateWebhook, webhookSecretContext, webhookView } from '../../shared/webhooks/webhook-service.js';
import { entityManager, type App } from '../app-env.js';
import { EventTypeName } from '../event-types/schema.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecord, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';

const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048 }),
    eventTypes: Type.Optional(Type.Array(EventTypeName, { maxItems: 100, description: 'event type names; empty or absent for every type' })),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const UpdateWebhookBody = changesSchema(CreateWebhookBody);

const WebhookResource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  isActive: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
const CreatedWebhook = Type.Intersect([WebhookResource, Type.Object({ secret: Type.String({ description: 'Standard Webhooks signing secret: shown in this answer only' }) })]);

const DeliveryResource = Type.Object({
  id: Type.String({ format: 'uuid', description: 'the webhook-id header of every attempt' }),
  eventId: Type.Integer(),
  eventType: Type.String(),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')]),
  attempts: Type.Array(Type.Object({ at: Type.String(), status: Type.Union([Type.Integer(), Type.Null()]), error: Type.Union([Type.String(), Type.Null()]), durationMs: Type.Integer() })),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const WEBHOOK_LIST: ListSpec = {
  resource: 'webhook',
  defaultSort: 'createdAt',
  fields: { createdAt: { type: 'datetime', filterable: true, sortable: true }, isActive: { type: 'boolean', filterable: true }, url: { type: 'string', filterable: true } },
};

const DELIVERY_LIST: ListSpec = {
  resource: 'webhook_delivery',
  defaultSort: 'createdAt',
  fields: {
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    status: { type: 'string', filterable: true },
    eventId: { type: 'number', filterable: true, sortable: true },
    eventType: { type: 'string', filterable: true },
  },
};

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

const access = { admin: 'admin:tenant' } as const;
const tags = ['Webhooks'];
const IdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** `/v1/webhooks` (decisions.md §10): where a tenant's events are delivered, and every attempt. */
export function registerWebhookRoutes(app: App, context: AppContext): void {
  const plainHttp = context.config.fetchAllowPrivateAddresses;
  const sealer = new Sealer(context.config.platformTokenSecret, 'webhook-secret');
  app.post(
    '/v1/webhooks',
    describe({ summary: 'Subscribe an address to events; the signing secret is in this answer only', tags, access, body: CreateWebhookBody, responses: { 201: { description: 'created', data: CreatedWebhook } }, errors: [422] }),
    authorize(context, access),
    idempotent(
      context,
      // The signing secret is stored sealed, so a recovered answer shows it as the first did.
      createsRecord(async (c, id) => {
        const webhook = await entityManager(c).findOne(Webhook, { tenant: c.var.tenant.id, id });
        return webhook ? c.json({ status: 'success', data: { ...webhookView(webhook), secret: sealer.open(webhook.secret, webhookSecretContext(id)) } }, 201) : undefined;
      }),
    ),
    jsonBody(CreateWebhookBody),
    async (c) => {
      const created = await createWebhook(entityManager(c), context.webhooks, sealer, c.var.tenant.id, c.req.valid('json'), plainHttp, c.var.reservedId);
      return c.json({ status: 'success', data: created }, 201);
    },
  );
  app.get(
    '/v1/webhooks',
    describe({ summary: 'List webhooks', tags, access, parameters: listParameters(WEBHOOK_LIST), responses: { 200: { description: 'a page of webhooks', data: Type.Array(WebhookResource) } }, errors: [400] }),
    authorize(context, access),
    (c) => listResponse(c, Webhook, WEBHOOK_LIST, webhookView),
  );
  app.get(
    '/v1/webhooks/:id',
    describe({ summary: 'Read a webhook', tags, access, parameters: [IdParameter], responses: { 200: { description: 'the webhook', data: WebhookResource } }, errors: [404] }),
    authorize(context, access),
    async (c) => c.json({ status: 'success', data: webhookView(await findWebhook(entityManager(c), c.var.tenant.id, c.req.param('id'))) }),
  );
  app.patch(
    '/v1/webhooks/:id',
    describe({ summary: 'Change a webhook', tags, access, parameters: [IdParameter], body: UpdateWebhookBody, responses: { 200: { description: 'the changed webhook', data: WebhookResource } }, errors: [404] }),
    authorize(context, access),
    jsonBody(UpdateWebhookBody),
    async (c) => {
      const changed = await updateWebhook(entityManager(c), context.webhooks, c.var.tenant.id, c.req.param('id'), c.req.valid('json'), plainHttp);
      return c.json({ status: 'success', data: webhookView(changed) });
    },
  );
  app.delete(
    '/v1/webhooks/:id',
    describe({ summary: 'Delete a webhook and its delivery records', tags, access, parameters: [IdParameter], responses: { 200: { description: 'deleted', data: Type.Object({ affected: Type.Integer() }) } }, errors: [404] }),
    authorize(context, access),
    async (c) => {
      await deleteWebhook(entityManager(c), context.webhooks, c.var.tenant.id, c.req.param('id'));
      return c.json({ status: 'success', data: { affected: 1 } });
    },
  );
  app.get(
    '/v1/webhooks/:id/deliveries',
    describe({ summary: 'A webhook\'s deliveries, each with every attempt', tags, access, parameters: [IdParameter, ...listParameters(DELIVERY_LIST)], responses: { 200: { description: 'a page of deliveries', data: Type.Array(DeliveryResource) } }, errors: [400, 404] }),
    authorize(context, access),
    async (c) => {
      const webhook = await findWebhook(entityManager(c), c.var.tenant.id, c.req.param('id'));
      return listResponse(c, WebhookDelivery, DELIVERY_LIST, deliveryView, { scope: { webhook: webhook.id } });
    },
  );
}
