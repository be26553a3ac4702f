import type { AppContext } from '../../shared/context.js';
import { Sealer } from '../../shared/platform/secrets/sealer.js';
import { Webhook } from '../../shared/webhooks/webhook.entity.js';
import { createWebhook, webhookSecretContext, webhookView } from '../../shared/webhooks/webhook-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { access, CreatedWebhook, CreateWebhookBody, tags, WEBHOOK_EXAMPLE } from './schema.js';

export function registerCreateWebhook(app: App, context: AppContext): void {
  const sealer = new Sealer(context.config.platformTokenSecret, 'webhook-secret');
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'createWebhook',
    description:
      'A webhook receives every registered event of the types it lists (all types when the list is empty) as a signed POST; see the `eventRegistered` webhook for the body and how to verify it. The signing secret (`whsec_…`) is in this answer.',
    examples: {
      request: { url: 'https://hooks.example.org/tally', eventTypes: ['PURCHASE'] },
      response: { ...WEBHOOK_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    },
    summary: 'Subscribe an address to events; the signing secret is in this answer only',
    tags,
    access,
    // The signing secret is stored sealed, so a recovered answer shows it as the first did.
    idempotency: createsRecord(async (c, id) => {
      const webhook = await entityManager(c).findOne(Webhook, { tenant: c.var.tenant.id, id });
      return webhook
        ? success(c, { ...webhookView(webhook), secret: sealer.open(webhook.secret, webhookSecretContext(id)) }, 201)
        : undefined;
    }),
    body: CreateWebhookBody,
    responses: { 201: { description: 'created', data: CreatedWebhook } },
    errors: [422],
    handler: ({ body }, c) =>
      createWebhook(
        context,
        entityManager(c),
        changedBy(c),
        sealer,
        body,
        context.config.fetchAllowPrivateAddresses,
        c.var.reservedId,
      ),
  });
}
