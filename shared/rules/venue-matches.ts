import { identifierKey } from '../products/product.entity.js';
import type { RuleOperator } from './rule-engine.js';
import type { GeoPosition } from '../venues/venue.entity.js';
import type { VenueArea } from '../venues/venue-directory.js';

const EARTH_RADIUS_METERS = 6_371_008.8;

/**
 * The custom operator `venueMatches` (docs/receipts.md#venues): whether a transaction was made in
 * a given venue, that is, whether the transaction's location identifier is one of the venue's, or
 * its submission position falls within the venue's radius.
 * Written `{fact: 'request', path: '$.transaction', operator: 'venueMatches', value: '<venue id>'}`;
 * an unknown venue matches nothing.
 */
export function venueMatchesOperator(venues: ReadonlyMap<string, VenueArea>): RuleOperator {
  return {
    name: 'venueMatches',
    evaluate: (transaction, venueId) => {
      const venue = typeof venueId === 'string' ? venues.get(venueId) : undefined;
      if (!venue || !transaction || typeof transaction !== 'object') return false;
      const { locationIdentifier, submissionPosition } = transaction as {
        locationIdentifier?: unknown;
        submissionPosition?: unknown;
      };
      if (
        typeof locationIdentifier === 'string' &&
        venue.identifiers.some((identifier) => identifierKey(identifier) === identifierKey(locationIdentifier))
      ) {
        return true;
      }
      return (
        venue.position !== null &&
        isPosition(submissionPosition) &&
        distanceMeters(venue.position, submissionPosition) <= venue.radiusMeters
      );
    },
  };
}

function isPosition(value: unknown): value is GeoPosition {
  const position = value as Partial<GeoPosition> | null;
  return typeof position?.latitude === 'number' && typeof position.longitude === 'number';
}

/** Great-circle distance by the haversine formula: ample for radii of metres to kilometres. */
export function distanceMeters(a: GeoPosition, b: GeoPosition): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLatitude = radians(b.latitude - a.latitude);
  const dLongitude = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLatitude / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLongitude / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}
