import { Type } from 'typebox';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { EventTypeName } from '../event-types/schema.js';
import { uuidPath } from '../routes/request-input.js';

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048 }),
    eventTypes: Type.Optional(
      Type.Array(EventTypeName, { maxItems: 100, description: 'event type names; empty or absent for every type' }),
    ),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const UpdateWebhookBody = changesSchema(CreateWebhookBody);

export const WebhookResource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  isActive: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export const CreatedWebhook = Type.Intersect([
  WebhookResource,
  Type.Object({ secret: Type.String({ description: 'Standard Webhooks signing secret: shown in this answer only' }) }),
]);

export const DeliveryResource = Type.Object({
  id: Type.String({ format: 'uuid', description: 'the webhook-id header of every attempt' }),
  eventId: Type.Integer(),
  eventType: Type.String(),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')]),
  attempts: Type.Array(
    Type.Object({
      at: Type.String(),
      status: Type.Union([Type.Integer(), Type.Null()]),
      error: Type.Union([Type.String(), Type.Null()]),
      durationMs: Type.Integer(),
    }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const WEBHOOK_LIST: ListSpec = {
  resource: 'webhook',
  defaultSort: 'createdAt',
  fields: {
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    url: { type: 'string', filterable: true },
  },
};

export const DELIVERY_LIST: ListSpec = {
  resource: 'webhook_delivery',
  defaultSort: 'createdAt',
  fields: {
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    status: { type: 'string', filterable: true },
    eventId: { type: 'number', filterable: true, sortable: true },
    eventType: { type: 'string', filterable: true },
  },
};

export const WebhookIdParams = uuidPath('id');

export const access = { admin: 'admin:tenant' } as const;
export const tags = ['Webhooks'];
