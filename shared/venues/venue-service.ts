import { randomUUID } from 'node:crypto';
import { auditedResourceChange, type AuditDependencies, type ChangedBy } from '../audit/audit-log.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { Venue, type GeoPosition } from './venue.entity.js';
import { findTenantRecord } from '../platform/db/tenant-record.js';

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

const venueResource = (deps: VenueChangeDependencies) => ({ resourceType: 'venue', cache: deps.venues });

export async function createVenue(
  deps: VenueChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: VenueInput,
  id: string = randomUUID(),
): Promise<Venue> {
  return auditedResourceChange(deps, em, by, venueResource(deps), async (tx) => {
    const venue = tx.create(Venue, {
      id,
      tenant: by.tenantId,
      name: input.name,
      identifiers: input.identifiers ?? [],
      position: input.position ?? null,
      radiusMeters: input.radiusMeters ?? DEFAULT_VENUE_RADIUS_METERS,
    });
    await tx.flush();
    return { result: venue, resourceId: id, before: null, after: venueView(venue) };
  });
}

export async function findVenue(em: EntityManager, tenantId: string, id: string): Promise<Venue> {
  return findTenantRecord(em, Venue, tenantId, id, 'venue');
}

export async function updateVenue(
  deps: VenueChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: Partial<VenueInput>,
): Promise<Venue> {
  return auditedResourceChange(deps, em, by, venueResource(deps), async (tx) => {
    const venue = await findVenue(tx, by.tenantId, id);
    const before = venueView(venue);
    copyWritableFields(venue, changes, ['name', 'identifiers', 'position', 'radiusMeters']);
    await tx.flush();
    return { result: venue, resourceId: venue.id, before, after: venueView(venue) };
  });
}

export async function deleteVenue(
  deps: VenueChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
): Promise<void> {
  await auditedResourceChange(deps, em, by, venueResource(deps), async (tx) => {
    const venue = await findVenue(tx, by.tenantId, id);
    await tx.nativeDelete(Venue, { tenant: by.tenantId, id: venue.id });
    return { result: undefined, resourceId: venue.id, before: venueView(venue), after: null };
  });
}
