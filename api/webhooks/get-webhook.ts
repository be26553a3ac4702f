import type { AppContext } from '../../shared/context.js';
import { findWebhook, webhookView } from '../../shared/webhooks/webhook-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, WEBHOOK_EXAMPLE, WebhookIdParams, WebhookResource } from './schema.js';

export function registerGetWebhook(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/webhooks/:id',
    operationId: 'getWebhook',
    description: 'One webhook by its id.',
    examples: { response: WEBHOOK_EXAMPLE },
    summary: 'Read a webhook',
    tags,
    access,
    params: WebhookIdParams,
    responses: { 200: { description: 'the webhook', data: WebhookResource } },
    errors: [404],
    handler: async ({ params }, c) => webhookView(await findWebhook(entityManager(c), c.var.tenant.id, params.id)),
  });
}
