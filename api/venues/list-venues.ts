import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Venue } from '../../shared/venues/venue.entity.js';
import { venueView } from '../../shared/venues/venue-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, VENUE_EXAMPLE, VENUE_LIST, VenueResource } from './schema.js';

export function registerListVenues(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/venues',
    operationId: 'listVenues',
    description:
      "The tenant's venues. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: { response: [VENUE_EXAMPLE] },
    summary: 'List venues',
    tags,
    access,
    query: listQuery(VENUE_LIST),
    responses: { 200: { description: 'a page of venues', data: Type.Array(VenueResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Venue, VENUE_LIST, query, venueView),
  });
}
