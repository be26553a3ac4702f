import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { EventType } from '../../shared/event-types/event-type.entity.js';
import { eventTypeView } from '../../shared/event-types/event-type-view.js';
import type { App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { EVENT_TYPE_EXAMPLE, EVENT_TYPE_LIST, tags } from './schema.js';
import { EventTypeResource } from '../../shared/event-types/event-type-view.js';

/** docs/events.md#event-types: `GET /event_types` needs the API key only and never shows secrets. */
export function registerListEventTypes(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/event_types',
    operationId: 'listEventTypes',
    description: `The tenant's event types; needs the API key only and never shows a secret. ${LIST_PAGE}`,
    examples: { response: [EVENT_TYPE_EXAMPLE] },
    summary: "List the tenant's event types",
    tags,
    access: 'apiKey',
    query: listQuery(EVENT_TYPE_LIST),
    responses: {
      200: { description: 'a page of event types; see Content-Range', data: Type.Array(EventTypeResource) },
    },
    errors: [400],
    handler: ({ query }, c) => listPage(c, EventType, EVENT_TYPE_LIST, query, eventTypeView),
  });
}
