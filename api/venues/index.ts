import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreateVenue } from './create-venue.js';
import { registerDeleteVenue } from './delete-venue.js';
import { registerGetVenue } from './get-venue.js';
import { registerListVenues } from './list-venues.js';
import { registerUpdateVenue } from './update-venue.js';

/** `/v1/venues` (docs/receipts.md#venues): where transactions happen, for `venueMatches`. */
export function registerVenueRoutes(app: App, context: AppContext): void {
  registerCreateVenue(app, context);
  registerListVenues(app, context);
  registerGetVenue(app, context);
  registerUpdateVenue(app, context);
  registerDeleteVenue(app, context);
}
