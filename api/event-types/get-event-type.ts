import type { AppContext } from '../../shared/context.js';
import { findEventType } from '../../shared/event-types/event-type-service.js';
import { eventTypeView } from '../../shared/event-types/event-type-view.js';
import { entityManager, type App } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { EventTypeResource, IdentifierParameter } from './schema.js';

export function registerGetEventType(app: App, context: AppContext): void {
  const access = { admin: 'read:event_types' } as const;
  app.get(
    '/v1/event_types/:identifier',
    describe({
      summary: 'Read one event type by uuid or name',
      tags: ['Event types'],
      access,
      parameters: [IdentifierParameter],
      responses: { 200: { description: 'the event type', data: EventTypeResource } },
      errors: [404],
    }),
    authorize(context, access),
    async (c) => {
      const eventType = await findEventType(entityManager(c), c.var.tenant.id, c.req.param('identifier'));
      return c.json({ status: 'success', data: eventTypeView(eventType) });
    },
  );
}
