import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { changeEventType } from '../../shared/event-types/audited-event-type-changes.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { EventTypeResource, IdentifierParams, tags, UpdateEventTypeBody } from './schema.js';

export function registerUpdateEventType(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/event_types/:identifier',
    summary: 'Change an event type (not its name or privacy)',
    tags,
    access: { admin: 'admin:event_types' },
    params: IdentifierParams,
    body: UpdateEventTypeBody,
    responses: { 200: { description: 'the changed event type', data: EventTypeResource } },
    errors: [404],
    handler: ({ params, body }, c) =>
      changeEventType(context, entityManager(c), actorOf(c.var.principal), c.var.tenant.id, params.identifier, body),
  });
}
