import { randomUUID } from 'node:crypto';
import type { AuditDependencies } from '../audit/audit-log.js';
import {
  auditedDelete,
  auditedResourceChange,
  auditedUpdate,
  type ChangedBy,
  type TenantRecords,
} from '../audit/audited-resource-change.js';
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

const venues = (deps: VenueChangeDependencies): TenantRecords<Venue> => ({
  resourceType: 'venue',
  cache: deps.venues,
  entity: Venue,
  noun: 'venue',
  view: venueView,
});

export async function createVenue(
  deps: VenueChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: VenueInput,
  id: string = randomUUID(),
): Promise<Venue> {
  return auditedResourceChange(deps, em, by, venues(deps), async (tx) => {
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
  return auditedUpdate(deps, em, by, venues(deps), id, (_tx, venue) =>
    copyWritableFields(venue, changes, ['name', 'identifiers', 'position', 'radiusMeters']),
  );
}

export async function deleteVenue(
  deps: VenueChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
): Promise<void> {
  await auditedDelete(deps, em, by, venues(deps), id);
}
