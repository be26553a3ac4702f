import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { EventType } from '../../shared/event-types/event-type.entity.js';
import { eventTypeView } from '../../shared/event-types/event-type-view.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import type { App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { describe } from '../openapi/describe.js';
import { EventTypeResource } from './schema.js';

const EVENT_TYPE_LIST: ListSpec = {
  resource: 'event_type',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    isPrivate: { type: 'boolean', filterable: true },
    isActive: { type: 'boolean', filterable: true },
    omitFromUserActivity: { type: 'boolean', filterable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

/** decisions.md §5: `GET /event_types` needs the API key only and never shows secrets. */
export function registerListEventTypes(app: App, _context: AppContext): void {
  app.get(
    '/v1/event_types',
    describe({
      summary: 'List the tenant\'s event types',
      tags: ['Event types'],
      access: 'apiKey',
      parameters: listParameters(EVENT_TYPE_LIST),
      responses: { 200: { description: 'a page of event types; see Content-Range', data: Type.Array(EventTypeResource) } },
      errors: [400],
    }),
    (c) => listResponse(c, EventType, EVENT_TYPE_LIST, eventTypeView),
  );
}
