import type { Context } from 'hono';
import type { FilterQuery } from '@mikro-orm/core';
import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { fieldError } from '../../shared/platform/errors/app-errors.js';
import { Event } from '../../shared/events/event.entity.js';
import { storedEventView } from '../../shared/events/event-view.js';
import type { ListQuery } from '../../shared/platform/lists/parse-list-query.js';
import type { App, AppEnv } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import type { RequestInput } from '../routes/request-input.js';
import { EVENT_EXAMPLE, EVENT_LIST, EventResource, tags } from './schema.js';

export type EventListQuery = ListQuery & { pointsOnlyEvents: boolean };

/** The list parameters and pointsOnlyEvents, which is read first. */
export function eventListQuery(): RequestInput<EventListQuery> {
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

export const EVENT_PAGE = {
  description: 'a page of events; see Content-Range',
  data: Type.Array(EventResource),
};

/**
 * A page of the tenant's registered events (docs/events.md#reading-events) within `scope`, as GET
 * /v1/events and a member's events (list-user-events.ts) show them.
 */
export function eventsPage(context: AppContext, c: Context<AppEnv>, query: EventListQuery, scope: FilterQuery<Event>) {
  return listPage(c, Event, EVENT_LIST, query, (event) => storedEventView(event, context.config.publicBaseUrl), {
    scope: query.pointsOnlyEvents ? { $and: [scope, { totalPoints: { $gt: 0 } }] } : scope,
    populate: ['type', 'user'],
  });
}

// docs/events.md#reading-events: GET /events lists registered events; pointsOnlyEvents keeps those with points.
export function registerListEvents(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    description: `Registered events, newest first; \`pointsOnlyEvents=true\` keeps those that granted points. ${LIST_PAGE}`,
    examples: { response: [EVENT_EXAMPLE] },
    summary: 'List registered events',
    tags,
    access: { admin: 'admin:events' },
    query: eventListQuery(),
    responses: { 200: EVENT_PAGE },
    errors: [400],
    handler: ({ query }, c) => eventsPage(context, c, query, {}),
  });
}

function booleanQuery(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw fieldError(name, raw, 'isBoolean', `${name} must be true or false`);
}
