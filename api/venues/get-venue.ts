import type { AppContext } from '../../shared/context.js';
import { findVenue, venueView } from '../../shared/venues/venue-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, VENUE_EXAMPLE, VenueIdParams, VenueResource } from './schema.js';

export function registerGetVenue(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/venues/:id',
    operationId: 'getVenue',
    description: 'One venue by its id.',
    examples: { response: VENUE_EXAMPLE },
    summary: 'Read a venue',
    tags,
    access,
    params: VenueIdParams,
    responses: { 200: { description: 'the venue', data: VenueResource } },
    errors: [404],
    handler: async ({ params }, c) => venueView(await findVenue(entityManager(c), c.var.tenant.id, params.id)),
  });
}
