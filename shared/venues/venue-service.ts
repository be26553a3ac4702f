import { randomUUID } from 'node:crypto';
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

export async function createVenue(
  em: EntityManager,
  venues: TenantCache,
  tenantId: string,
  input: VenueInput,
  id: string = randomUUID(),
): Promise<Venue> {
  const venue = em.create(Venue, {
    id,
    tenant: tenantId,
    name: input.name,
    identifiers: input.identifiers ?? [],
    position: input.position ?? null,
    radiusMeters: input.radiusMeters ?? DEFAULT_VENUE_RADIUS_METERS,
  });
  await em.flush();
  venues.forget(tenantId);
  return venue;
}

export async function findVenue(em: EntityManager, tenantId: string, id: string): Promise<Venue> {
  return findTenantRecord(em, Venue, tenantId, id, 'venue');
}

export async function updateVenue(
  em: EntityManager,
  venues: TenantCache,
  tenantId: string,
  id: string,
  changes: Partial<VenueInput>,
): Promise<Venue> {
  const venue = await findVenue(em, tenantId, id);
  copyWritableFields(venue, changes, ['name', 'identifiers', 'position', 'radiusMeters']);
  await em.flush();
  venues.forget(tenantId);
  return venue;
}

export async function deleteVenue(em: EntityManager, venues: TenantCache, tenantId: string, id: string): Promise<void> {
  const venue = await findVenue(em, tenantId, id);
  await em.nativeDelete(Venue, { tenant: tenantId, id: venue.id });
  venues.forget(tenantId);
}
