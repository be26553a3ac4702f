import type { AppContext } from '../../shared/context.js';
import { deleteWebhook } from '../../shared/webhooks/webhook-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { Deleted, DELETED_ONE } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, WebhookIdParams } from './schema.js';

export function registerDeleteWebhook(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'delete',
    path: '/v1/webhooks/:id',
    operationId: 'deleteWebhook',
    description:
      'Deletes a webhook. A webhook that a reactor names cannot be deleted (409): deactivate it instead. Its delivery records go with it.',
    examples: { response: { affected: 1 } },
    summary: 'Delete a webhook and its delivery records',
    tags,
    access,
    params: WebhookIdParams,
    responses: { 200: { description: 'deleted', data: Deleted } },
    errors: [404],
    handler: async ({ params }, c) => {
      await deleteWebhook(context, entityManager(c), changedBy(c), params.id);
      return DELETED_ONE;
    },
  });
}
