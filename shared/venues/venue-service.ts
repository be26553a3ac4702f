import { randomUUID } from 'node:crypto';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedRecords } from '../audit/audited-records.js';
import type { ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { Venue, type GeoPosition } from './venue.entity.js';

export interface VenueInput {
  name: string;
  identifiers?: string[];
  position?: GeoPosition | null;
  radiusMeters?: number;
}

/** A venue covers 100 m around its position unless told otherwise. */
export const DEFAULT_VENUE_RADIUS_METERS = 100;

export function venueView(venue: Venue) {
  return {
    id: venue.id,
    name: venue.name,
    identifiers: venue.identifiers,
    position: venue.position ?? null,
    radiusMeters: venue.radiusMeters,
    createdAt: venue.createdAt.toISOString(),
    updatedAt: venue.updatedAt.toISOString(),
  };
}

/** Venue changes: the audit log, and the venue cache a change makes stale. */
export interface VenueChangeDependencies extends AuditDependencies {
  venues: TenantCache;
}

const venues = auditedRecords({
  resourceType: 'venue',
  entity: Venue,
  view: venueView,
  cache: (deps: VenueChangeDependencies) => deps.venues,
});

export async function createVenue(
  deps: VenueChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: VenueInput,
  id: string = randomUUID(),
): Promise<Venue> {
  return venues.create(deps, em, by, id, async (tx, owned) => {
    const venue = tx.create(Venue, {
      ...owned,
      name: input.name,
      identifiers: input.identifiers ?? [],
      position: input.position ?? null,
      radiusMeters: input.radiusMeters ?? DEFAULT_VENUE_RADIUS_METERS,
    });
    return venue;
  });
}

export const findVenue = venues.find;

export async function updateVenue(
  deps: VenueChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: Partial<VenueInput>,
): Promise<Venue> {
  return venues.update(deps, em, by, id, (_tx, venue) =>
    copyWritableFields(venue, changes, ['name', 'identifiers', 'position', 'radiusMeters']),
  );
}

export const deleteVenue = venues.remove;
