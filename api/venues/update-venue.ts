import type { AppContext } from '../../shared/context.js';
import { updateVenue, venueView } from '../../shared/venues/venue-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, UpdateVenueBody, VENUE_EXAMPLE, VenueIdParams, VenueResource } from './schema.js';

export function registerUpdateVenue(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/venues/:id',
    operationId: 'updateVenue',
    description: 'Changes the fields given; the others keep their values.',
    examples: { request: { radiusMeters: 300 }, response: { ...VENUE_EXAMPLE, radiusMeters: 300 } },
    summary: 'Change a venue',
    tags,
    access,
    params: VenueIdParams,
    body: UpdateVenueBody,
    responses: { 200: { description: 'the changed venue', data: VenueResource } },
    errors: [404],
    handler: async ({ params, body }, c) =>
      venueView(await updateVenue(context, entityManager(c), changedBy(c), params.id, body)),
  });
}
