import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { fieldError } from '../../shared/platform/errors/app-errors.js';
import { Event } from '../../shared/events/event.entity.js';
import { storedEventView } from '../../shared/events/event-view.js';
import type { ListQuery } from '../../shared/platform/lists/parse-list-query.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import type { RequestInput } from '../routes/request-input.js';
import { EVENT_EXAMPLE, EVENT_LIST, EventResource, tags } from './schema.js';

/** The list parameters and pointsOnlyEvents, which is read first. */
function eventListQuery(): RequestInput<ListQuery & { pointsOnlyEvents: boolean }> {
  const list = listQuery(EVENT_LIST);
  return {
    schema: Type.Object({
      ...list.schema.properties,
      pointsOnlyEvents: Type.Optional(
        Type.Boolean({ description: '`true` keeps only the events that granted points' }),
      ),
    }),
    parse: (raw) => {
      const pointsOnlyEvents = booleanQuery('pointsOnlyEvents', raw.pointsOnlyEvents);
      return { ...list.parse(raw), pointsOnlyEvents };
    },
  };
}

// docs/events.md#reading-events: GET /events lists registered events; pointsOnlyEvents keeps those with points.
export function registerListEvents(app: App, context: AppContext): void {
  const serviceSubject = context.config.publicBaseUrl;
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    description:
      'Registered events, newest first; `pointsOnlyEvents=true` keeps those that granted points. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.',
    examples: { response: [EVENT_EXAMPLE] },
    summary: 'List registered events',
    tags,
    access: { admin: 'admin:events' },
    query: eventListQuery(),
    responses: { 200: { description: 'a page of events; see Content-Range', data: Type.Array(EventResource) } },
    errors: [400],
    handler: ({ query }, c) =>
      listPage(c, Event, EVENT_LIST, query, (event) => storedEventView(event, serviceSubject), {
        scope: query.pointsOnlyEvents ? { totalPoints: { $gt: 0 } } : {},
        populate: ['type', 'user'],
      }),
  });
}

function booleanQuery(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw fieldError(name, raw, 'isBoolean', `${name} must be true or false`);
}
