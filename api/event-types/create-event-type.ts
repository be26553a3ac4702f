import type { AppContext } from '../../shared/context.js';
import { actorOf, auditedChange } from '../../shared/audit/audit-log.js';
import { EventType } from '../../shared/event-types/event-type.entity.js';
import { createEventType } from '../../shared/event-types/event-type-service.js';
import { eventTypeView } from '../../shared/event-types/event-type-view.js';
import { entityManager, type App } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecordOf, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { CreatedEventType, CreateEventTypeBody } from './schema.js';

export function registerCreateEventType(app: App, context: AppContext): void {
  const access = { admin: 'admin:event_types' } as const;
  app.post(
    '/v1/event_types',
    describe({
      summary: 'Create an event type; a private type\'s secret is in this answer only',
      tags: ['Event types'],
      access,
      body: CreateEventTypeBody,
      responses: { 201: { description: 'created', data: CreatedEventType } },
      errors: [409, 422],
    }),
    authorize(context, access),
    // A private type's secret is stored as a hash: an answer recovered for a retry cannot show it (rotate it).
    idempotent(context, createsRecordOf(EventType, eventTypeView)),
    jsonBody(CreateEventTypeBody),
    async (c) => {
      const { eventType, secret } = await auditedChange(
        context,
        entityManager(c),
        (em) => createEventType(em, context.payloadSchemas, c.var.tenant.id, c.req.valid('json'), c.var.reservedId),
        (created) => ({
          tenantId: c.var.tenant.id,
          actor: actorOf(c.var.principal),
          action: 'event_type.created',
          resourceType: 'event_type',
          resourceId: created.eventType.id,
          before: null,
          after: created.eventType,
        }),
      );
      return c.json({ status: 'success', data: { ...eventType, ...(secret ? { secret } : {}) } }, 201);
    },
  );
}
