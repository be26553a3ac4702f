import type { AppContext } from '../../shared/context.js';
import { updateVenue, venueView } from '../../shared/venues/venue-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, UpdateVenueBody, VenueIdParams, VenueResource } from './schema.js';

export function registerUpdateVenue(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/venues/:id',
    operationId: 'updateVenue',
    description: 'Changes the fields given; the others keep their values.',
    examples: {
      request: { radiusMeters: 300 },
      response: {
        id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
        name: 'Main Street',
        identifiers: ['STORE-12'],
        position: { latitude: 51.5072, longitude: -0.1276 },
        radiusMeters: 300,
        createdAt: '2026-01-09T09:00:00.000Z',
        updatedAt: '2026-01-09T09:00:00.000Z',
      },
    },
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
