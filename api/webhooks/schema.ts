import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type } from 'typebox';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { EventTypeName } from '../../shared/event-types/event-type-view.js';
import { EVENT_EXAMPLE, EventResource } from '../events/schema.js';
import { uuidPath } from '../routes/request-input.js';

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048 }),
    eventTypes: Type.Optional(
      Type.Array(EventTypeName, { maxItems: 100, description: 'event type names; empty or absent for every type' }),
    ),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'CreateWebhookBody' },
);
export const UpdateWebhookBody = changesSchema(CreateWebhookBody, { title: 'UpdateWebhookBody' });

export const WebhookResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    eventTypes: Type.Array(Type.String()),
    isActive: Type.Boolean(),
    ...TIMESTAMPS,
  },
  { title: 'Webhook' },
);
export const CreatedWebhook = Type.Intersect(
  [
    WebhookResource,
    Type.Object({
      secret: Type.String({ description: 'Standard Webhooks signing secret: shown in this answer only' }),
    }),
  ],
  { title: 'CreatedWebhook' },
);

export const DeliveryResource = Type.Object(
  {
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
  },
  { title: 'WebhookDelivery' },
);

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

export const access = { admin: 'admin:tenant' } as const;
export const tags = ['Webhooks'];

/** The body of every delivery (docs/events.md#webhooks): Standard Webhooks' `{type, timestamp, data}`. */
export const WebhookPayload = Type.Object(
  {
    type: Type.String({ description: "The event's type name" }),
    timestamp: Type.String({ format: 'date-time', description: 'When this attempt was signed and sent' }),
    data: EventResource,
  },
  { title: 'WebhookPayload' },
);

const signatureHeader = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: Type.String(),
  example,
});

/**
 * The `webhooks` section of the document: what a subscribed address receives and how it checks
 * that the request is ours, in the Standard Webhooks scheme shared/webhooks/deliver-webhook.ts signs with.
 */
export const WEBHOOKS = {
  eventRegistered: {
    post: {
      operationId: 'eventRegistered',
      summary: 'An event of a type the webhook takes was registered',
      description: `Sent to the \`url\` of every active webhook that takes the event's type (or that a WEBHOOK
reaction names), once the event is registered. The body is \`{type, timestamp, data}\`, \`data\` being the
event as \`GET /v1/events/{id}\` shows it.

**Verify the signature before trusting the body.** Every request is signed with the webhook's secret
(\`whsec_…\`, shown when the webhook was created) following Standard Webhooks:

1. Take \`webhook-id\`, \`webhook-timestamp\` and the raw body, exactly as received (do not parse and re-serialise it).
2. Refuse a \`webhook-timestamp\` (Unix seconds) more than 5 minutes from your clock: it stops replays.
3. Compute HMAC-SHA256 over \`<webhook-id>.<webhook-timestamp>.<body>\` with the key being the
   base64-decoded part of the secret after \`whsec_\`, and encode the result in base64.
4. \`webhook-signature\` holds space-separated \`v1,<base64>\` signatures: accept the request if one of
   them equals yours, compared in constant time.

Libraries do this for you, for example \`standardwebhooks\` on npm:
\`new Webhook(secret).verify(rawBody, headers)\` throws unless the request is genuine.

\`webhook-id\` is the delivery's id, the same on every retry of it: use it to ignore a delivery you
have already handled. Answer any 2xx within 10 seconds to settle the delivery; anything else (or no
answer) is retried with a doubling delay over about 24 hours, after which the delivery is FAILED.
\`GET /v1/webhooks/{id}/deliveries\` shows each attempt and what your server answered.`,
      tags,
      security: [],
      parameters: [
        signatureHeader(
          'webhook-id',
          "The delivery's id: the same on every attempt of one delivery",
          'a3f4e2c1-7b6d-4e5f-9a8b-1c2d3e4f5a6b',
        ),
        signatureHeader('webhook-timestamp', 'When this attempt was signed, in Unix seconds', '1769947200'),
        signatureHeader(
          'webhook-signature',
          'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>`',
          'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        ),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: WebhookPayload,
            example: { type: 'PURCHASE', timestamp: '2026-02-01T12:00:01.000Z', data: EVENT_EXAMPLE },
          },
        },
      },
      responses: {
        200: { description: 'Any 2xx settles the delivery' },
        400: { description: 'Any other answer, or none within 10 s, is retried later' },
      },
    },
  },
};

/** A webhook as the examples show it: created (with its secret), read, listed and changed. */
export const WEBHOOK_EXAMPLE = {
  id: 'c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f',
  url: 'https://hooks.example.org/tally',
  eventTypes: ['PURCHASE'],
  isActive: true,
  createdAt: '2026-01-08T08:00:00.000Z',
  updatedAt: '2026-01-08T08:00:00.000Z',
};

export const WebhookIdParams = uuidPath({ id: { description: "The webhook's id", example: WEBHOOK_EXAMPLE.id } });
