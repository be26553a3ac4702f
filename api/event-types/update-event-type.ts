import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { changeEventType } from '../../shared/event-types/audited-event-type-changes.js';
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
      const after = await changeEventType(context, entityManager(c), actorOf(c.var.principal), c.var.tenant.id, c.req.param('identifier'), c.req.valid('json'));
      return c.json({ status: 'success', data: after });
    },
  );
}
