import type { AppContext } from '../../shared/context.js';
import { Venue } from '../../shared/venues/venue.entity.js';
import { createVenue, deleteVenue, findVenue, updateVenue, venueView } from '../../shared/venues/venue-service.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import {
  access,
  CreateVenueBody,
  tags,
  UpdateVenueBody,
  VENUE_EXAMPLE,
  VENUE_LIST,
  VenueIdParams,
  VenueResource,
} from './schema.js';

/** `/v1/venues` (docs/receipts.md#venues): where transactions happen, for `venueMatches`. */
export function registerVenueRoutes(app: App, context: AppContext): void {
  const venues = collectionRoutes(app, context, {
    path: '/v1/venues',
    noun: 'venue',
    entity: Venue,
    resource: VenueResource,
    view: venueView,
    example: VENUE_EXAMPLE,
    params: VenueIdParams,
    tags,
    access,
  });
  venues.create({
    summary: 'Add a venue',
    description:
      'A venue is a place where receipts may be claimed: its `identifiers` match what receipts and tills carry, and `position` with `radiusMeters` bounds where a claim may be submitted.',
    body: CreateVenueBody,
    request: {
      name: 'Main Street',
      identifiers: ['STORE-12'],
      position: { latitude: 51.5072, longitude: -0.1276 },
      radiusMeters: 150,
    },
    create: createVenue,
  });
  venues.list({ description: "The tenant's venues.", spec: VENUE_LIST });
  venues.get({ find: findVenue });
  venues.update({
    body: UpdateVenueBody,
    examples: { request: { radiusMeters: 300 }, response: { ...VENUE_EXAMPLE, radiusMeters: 300 } },
    update: updateVenue,
  });
  venues.delete({
    description: 'Deletes a venue for good: receipts and tills carrying its identifiers no longer match it.',
    remove: deleteVenue,
  });
}
