import type { AppContext } from '../../shared/context.js';
import { actorOf, auditedChange } from '../../shared/audit/audit-log.js';
import { updateEventType } from '../../shared/event-types/event-type-service.js';
import { entityManager, type App } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { EventTypeResource, IdentifierParameter, UpdateEventTypeBody } from './schema.js';

export function registerUpdateEventType(app: App, context: AppContext): void {
  const access = { admin: 'admin:event_types' } as const;
  app.patch(
    '/v1/event_types/:identifier',
    describe({
      summary: 'Change an event type (not its name or privacy)',
      tags: ['Event types'],
      access,
      parameters: [IdentifierParameter],
      body: UpdateEventTypeBody,
      responses: { 200: { description: 'the changed event type', data: EventTypeResource } },
      errors: [404],
    }),
    authorize(context, access),
    jsonBody(UpdateEventTypeBody),
    async (c) => {
      const tenantId = c.var.tenant.id;
      const { after } = await auditedChange(
        context,
        entityManager(c),
        (em) => updateEventType(em, context.payloadSchemas, tenantId, c.req.param('identifier'), c.req.valid('json')),
        (changed) => ({
          tenantId,
          actor: actorOf(c.var.principal),
          action: 'event_type.updated',
          resourceType: 'event_type',
          resourceId: changed.after.id,
          before: changed.before,
          after: changed.after,
        }),
      );
      context.eventTypes.forget(tenantId, after.name);
      return c.json({ status: 'success', data: after });
    },
  );
}
