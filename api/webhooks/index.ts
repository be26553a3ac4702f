import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreateWebhook } from './create-webhook.js';
import { registerDeleteWebhook } from './delete-webhook.js';
import { registerGetWebhook } from './get-webhook.js';
import { registerListDeliveries } from './list-deliveries.js';
import { registerListWebhooks } from './list-webhooks.js';
import { registerUpdateWebhook } from './update-webhook.js';

/** `/v1/webhooks` (docs/events.md#webhooks): where a tenant's events are delivered, and every attempt. */
export function registerWebhookRoutes(app: App, context: AppContext): void {
  registerCreateWebhook(app, context);
  registerListWebhooks(app, context);
  registerGetWebhook(app, context);
  registerUpdateWebhook(app, context);
  registerDeleteWebhook(app, context);
  registerListDeliveries(app, context);
}
