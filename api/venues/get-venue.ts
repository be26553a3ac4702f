import type { AppContext } from '../../shared/context.js';
import { findVenue, venueView } from '../../shared/venues/venue-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, tags, VenueIdParams, VenueResource } from './schema.js';

export function registerGetVenue(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/venues/:id',
    operationId: 'getVenue',
    description: 'One venue by its id.',
    examples: {
      response: {
        id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
        name: 'Main Street',
        identifiers: ['STORE-12'],
        position: { latitude: 51.5072, longitude: -0.1276 },
        radiusMeters: 150,
        createdAt: '2026-01-09T09:00:00.000Z',
        updatedAt: '2026-01-09T09:00:00.000Z',
      },
    },
    summary: 'Read a venue',
    tags,
    access,
    params: VenueIdParams,
    responses: { 200: { description: 'the venue', data: VenueResource } },
    errors: [404],
    handler: async ({ params }, c) => venueView(await findVenue(entityManager(c), c.var.tenant.id, params.id)),
  });
}
