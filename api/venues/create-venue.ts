import type { AppContext } from '../../shared/context.js';
import { Venue } from '../../shared/venues/venue.entity.js';
import { createVenue, venueView } from '../../shared/venues/venue-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { access, CreateVenueBody, tags, VenueResource } from './schema.js';

export function registerCreateVenue(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/venues',
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
