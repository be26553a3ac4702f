import type { AppContext } from '../../shared/context.js';
import { updateWebhook, webhookView } from '../../shared/webhooks/webhook-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, UpdateWebhookBody, WebhookIdParams, WebhookResource } from './schema.js';

export function registerUpdateWebhook(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/webhooks/:id',
    operationId: 'updateWebhook',
    description: 'Changes the fields given; the others keep their values.',
    examples: {
      request: { isActive: false },
      response: {
        id: 'c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f',
        url: 'https://hooks.example.org/tally',
        eventTypes: ['PURCHASE'],
        isActive: false,
        createdAt: '2026-01-08T08:00:00.000Z',
        updatedAt: '2026-01-08T08:00:00.000Z',
      },
    },
    summary: 'Change a webhook',
    tags,
    access,
    params: WebhookIdParams,
    body: UpdateWebhookBody,
    responses: { 200: { description: 'the changed webhook', data: WebhookResource } },
    errors: [404],
    handler: async ({ params, body }, c) =>
      webhookView(
        await updateWebhook(
          context,
          entityManager(c),
          changedBy(c),
          params.id,
          body,
          context.config.fetchAllowPrivateAddresses,
        ),
      ),
  });
}
