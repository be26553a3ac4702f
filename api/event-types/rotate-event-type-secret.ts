import type { AppContext } from '../../shared/context.js';
import { actorOf, enqueueAudit } from '../../shared/audit/audit-log.js';
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
      const { eventType, secret } = await rotateEventTypeSecret(entityManager(c), tenantId, c.req.param('identifier'));
      context.eventTypes.forget(tenantId, eventType.name);
      // The audit entry records that the secret changed, never the secret itself.
      await enqueueAudit(context, {
        tenantId,
        actor: actorOf(c.var.principal),
        action: 'event_type.secret_rotated',
        resourceType: 'event_type',
        resourceId: eventType.id,
        before: null,
        after: { name: eventType.name, secretRotatedAt: eventType.updatedAt },
      });
      return c.json({ status: 'success', data: { secret } });
    },
  );
}
