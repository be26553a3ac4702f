import type { AppContext } from '../../shared/context.js';
import { Venue } from '../../shared/venues/venue.entity.js';
import { createVenue, venueView } from '../../shared/venues/venue-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { access, CreateVenueBody, tags, VENUE_EXAMPLE, VenueResource } from './schema.js';

export function registerCreateVenue(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/venues',
    operationId: 'createVenue',
    description:
      'A venue is a place where receipts may be claimed: its `identifiers` match what receipts and tills carry, and `position` with `radiusMeters` bounds where a claim may be submitted.',
    examples: {
      request: {
        name: 'Main Street',
        identifiers: ['STORE-12'],
        position: { latitude: 51.5072, longitude: -0.1276 },
        radiusMeters: 150,
      },
      response: VENUE_EXAMPLE,
    },
    summary: 'Add a venue',
    tags,
    access,
    idempotency: createsRecordOf(Venue, venueView),
    body: CreateVenueBody,
    responses: { 201: { description: 'created', data: VenueResource } },
    errors: [422],
    handler: async ({ body }, c) =>
      venueView(await createVenue(context, entityManager(c), changedBy(c), body, c.var.reservedId)),
  });
}
