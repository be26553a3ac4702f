import type { AppContext } from '../../shared/context.js';
import { actorOf, auditedChange } from '../../shared/audit/audit-log.js';
import { rotateEventTypeSecret } from '../../shared/event-types/event-type-service.js';
import { entityManager, type App } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { IdentifierParameter, RotatedSecret } from './schema.js';

export function registerRotateEventTypeSecret(app: App, context: AppContext): void {
  const access = { admin: 'admin:event_types' } as const;
  app.post(
    '/v1/event_types/:identifier/secret',
    describe({
      summary: 'Replace a private event type\'s secret; the new one is in this answer only',
      tags: ['Event types'],
      access,
      parameters: [IdentifierParameter],
      responses: { 200: { description: 'the new secret', data: RotatedSecret } },
      errors: [400, 404],
    }),
    authorize(context, access),
    async (c) => {
      const tenantId = c.var.tenant.id;
      const { eventType, secret } = await auditedChange(
        context,
        entityManager(c),
        (em) => rotateEventTypeSecret(em, tenantId, c.req.param('identifier')),
        // The audit entry records that the secret changed, never the secret itself.
        (rotated) => ({
          tenantId,
          actor: actorOf(c.var.principal),
          action: 'event_type.secret_rotated',
          resourceType: 'event_type',
          resourceId: rotated.eventType.id,
          before: null,
          after: { name: rotated.eventType.name, secretRotatedAt: rotated.eventType.updatedAt },
        }),
      );
      context.eventTypes.forget(tenantId, eventType.name);
      return c.json({ status: 'success', data: { secret } });
    },
  );
}
