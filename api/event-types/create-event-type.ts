import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { addEventType } from '../../shared/event-types/audited-event-type-changes.js';
import { EventType } from '../../shared/event-types/event-type.entity.js';
import { eventTypeView } from '../../shared/event-types/event-type-view.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { CreatedEventType, CreateEventTypeBody, EVENT_TYPE_EXAMPLE, tags } from './schema.js';

export function registerCreateEventType(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/event_types',
    operationId: 'createEventType',
    description:
      'Declares a kind of event your systems report. `name` is upper-case words joined by underscores and cannot change later. A `schema` (JSON Schema) checks every payload reported under the type. A private type (`isPrivate: true`) is reported with its secret as the bearer token; the secret (`ets_…`) is in this answer only, so keep it.',
    examples: {
      request: {
        name: 'PURCHASE',
        description: 'A purchase in a shop',
        isPrivate: true,
        schema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
      },
      // The till reports purchases with this secret, naming the member in `subject`.
      response: { ...EVENT_TYPE_EXAMPLE, secret: 'ets_2c41d9e07f5a4b6c8d3e1f0a9b8c7d6e' },
    },
    summary: "Create an event type; a private type's secret is in this answer only",
    tags,
    access: { admin: 'admin:event_types' },
    // A private type's secret is stored as a hash: an answer recovered for a retry cannot show it (rotate it).
    idempotency: createsRecordOf(EventType, eventTypeView),
    body: CreateEventTypeBody,
    responses: { 201: { description: 'created', data: CreatedEventType } },
    errors: [409, 422],
    handler: async ({ body }, c) => {
      const { eventType, secret } = await addEventType(
        context,
        entityManager(c),
        actorOf(c.var.principal),
        c.var.tenant.id,
        body,
        c.var.reservedId,
      );
      return { ...eventType, ...(secret ? { secret } : {}) };
    },
  });
}
