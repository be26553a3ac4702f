import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { rotateSecretAudited } from '../../shared/event-types/audited-event-type-changes.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { IdentifierParams, RotatedSecret, tags } from './schema.js';

export function registerRotateEventTypeSecret(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/event_types/:identifier/secret',
    operationId: 'rotateEventTypeSecret',
    description:
      'Gives a private event type a new secret and makes the old one useless at once. The new secret is in this answer only. A public type has no secret: 400.',
    examples: { response: { secret: 'ets_9f8e7d6c5b4a39281706f5e4d3c2b1a0' } },
    summary: "Replace a private event type's secret; the new one is in this answer only",
    tags,
    access: { admin: 'admin:event_types' },
    params: IdentifierParams,
    responses: { 200: { description: 'the new secret', data: RotatedSecret } },
    errors: [400, 404],
    handler: async ({ params }, c) => ({
      secret: await rotateSecretAudited(
        context,
        entityManager(c),
        actorOf(c.var.principal),
        c.var.tenant.id,
        params.identifier,
      ),
    }),
  });
}
