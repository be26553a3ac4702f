import type { AppContext } from '../../shared/context.js';
import { findEventType } from '../../shared/event-types/event-type-service.js';
import { eventTypeView } from '../../shared/event-types/event-type-view.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { EVENT_TYPE_EXAMPLE, IdentifierParams, tags } from './schema.js';
import { EventTypeResource } from '../../shared/event-types/event-type-view.js';

export function registerGetEventType(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/event_types/:identifier',
    operationId: 'getEventType',
    description: 'One event type, named by its uuid or by its name.',
    examples: { response: EVENT_TYPE_EXAMPLE },
    summary: 'Read one event type by uuid or name',
    tags,
    access: { admin: 'read:event_types' },
    params: IdentifierParams,
    responses: { 200: { description: 'the event type', data: EventTypeResource } },
    errors: [404],
    handler: async ({ params }, c) =>
      eventTypeView(await findEventType(entityManager(c), c.var.tenant.id, params.identifier)),
  });
}
