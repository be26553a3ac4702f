import type { AppContext } from '../../shared/context.js';
import { Webhook } from '../../shared/webhooks/webhook.entity.js';
import { deleteWebhook, findWebhook, updateWebhook, webhookView } from '../../shared/webhooks/webhook-service.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import { registerCreateWebhook } from './create-webhook.js';
import { registerListDeliveries } from './list-deliveries.js';
import {
  access,
  tags,
  UpdateWebhookBody,
  WEBHOOK_EXAMPLE,
  WEBHOOK_LIST,
  WebhookIdParams,
  WebhookResource,
} from './schema.js';

/** `/v1/webhooks` (docs/events.md#webhooks): where a tenant's events are delivered, and every attempt. */
export function registerWebhookRoutes(app: App, context: AppContext): void {
  const webhooks = collectionRoutes(app, context, {
    path: '/v1/webhooks',
    noun: 'webhook',
    entity: Webhook,
    resource: WebhookResource,
    view: webhookView,
    example: WEBHOOK_EXAMPLE,
    params: WebhookIdParams,
    tags,
    access,
  });
  // Its answer carries the signing secret, which no other answer shows.
  registerCreateWebhook(app, context);
  webhooks.list({ description: "The tenant's webhooks.", spec: WEBHOOK_LIST });
  webhooks.get({ find: findWebhook });
  webhooks.update({
    body: UpdateWebhookBody,
    examples: { request: { isActive: false }, response: { ...WEBHOOK_EXAMPLE, isActive: false } },
    update: (deps, em, by, id, changes) =>
      updateWebhook(deps, em, by, id, changes, deps.config.fetchAllowPrivateAddresses),
  });
  webhooks.delete({
    summary: 'Delete a webhook and its delivery records',
    description:
      'Deletes a webhook. A webhook that a reactor names cannot be deleted (409): deactivate it instead. Its delivery records go with it.',
    errors: [404, 409],
    remove: deleteWebhook,
  });
  registerListDeliveries(app, context);
}
