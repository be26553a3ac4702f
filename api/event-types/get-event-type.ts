import type { AppContext } from '../../shared/context.js';
import { findEventType } from '../../shared/event-types/event-type-service.js';
import { eventTypeView } from '../../shared/event-types/event-type-view.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { EventTypeResource, IdentifierParams, tags } from './schema.js';

export function registerGetEventType(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/event_types/:identifier',
    operationId: 'getEventType',
    description: 'One event type, named by its uuid or by its name.',
    examples: {
      response: {
        id: '6f1c0d2e-8a3b-4c5d-9e7f-0a1b2c3d4e5f',
        name: 'PURCHASE',
        description: 'A purchase in a shop',
        isPrivate: false,
        omitFromUserActivity: false,
        isActive: true,
        createdAt: '2026-01-05T09:00:00.000Z',
        updatedAt: '2026-01-05T09:00:00.000Z',
      },
    },
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
