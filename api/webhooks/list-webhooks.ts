import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Webhook } from '../../shared/webhooks/webhook.entity.js';
import { webhookView } from '../../shared/webhooks/webhook-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, WEBHOOK_EXAMPLE, WEBHOOK_LIST, WebhookResource } from './schema.js';

export function registerListWebhooks(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/webhooks',
    operationId: 'listWebhooks',
    description:
      "The tenant's webhooks. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: { response: [WEBHOOK_EXAMPLE] },
    summary: 'List webhooks',
    tags,
    access,
    query: listQuery(WEBHOOK_LIST),
    responses: { 200: { description: 'a page of webhooks', data: Type.Array(WebhookResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Webhook, WEBHOOK_LIST, query, webhookView),
  });
}
