import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { changeEventType } from '../../shared/event-types/audited-event-type-changes.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { EVENT_TYPE_EXAMPLE, IdentifierParams, tags, UpdateEventTypeBody } from './schema.js';
import { EventTypeResource } from '../../shared/event-types/event-type-view.js';

export function registerUpdateEventType(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/event_types/:identifier',
    operationId: 'updateEventType',
    description:
      'Changes the fields given: description, payload schema (`null` removes it), `omitFromUserActivity`, `isActive`. `name` and `isPrivate` cannot change: sending them is 400. An inactive type refuses new reports.',
    examples: {
      request: { isActive: false },
      response: { ...EVENT_TYPE_EXAMPLE, isActive: false, updatedAt: '2026-02-03T08:00:00.000Z' },
    },
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
