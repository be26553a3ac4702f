import type { AppContext } from '../../shared/context.js';
import { updateWebhook, webhookView } from '../../shared/webhooks/webhook-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, UpdateWebhookBody, WEBHOOK_EXAMPLE, WebhookIdParams, WebhookResource } from './schema.js';

export function registerUpdateWebhook(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/webhooks/:id',
    operationId: 'updateWebhook',
    description: 'Changes the fields given; the others keep their values.',
    examples: { request: { isActive: false }, response: { ...WEBHOOK_EXAMPLE, isActive: false } },
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
