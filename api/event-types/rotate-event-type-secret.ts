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
