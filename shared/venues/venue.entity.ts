import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

export interface GeoPosition {
  latitude: number;
  longitude: number;
}

/**
 * A place where the tenant's transactions happen (docs/receipts.md#venues): `identifiers` are the
 * location identifiers receipts and tills carry; `position` and `radiusMeters` the area a claim's
 * submission position must fall in. The `venueMatches` rule operator reads both.
 */
export const Venue = defineEntity({
  name: 'Venue',
  tableName: 'venue',
  indexes: [{ properties: ['tenant', 'createdAt'] }],
  properties: {
    ...tenantOwned(),
    name: p.string().length(256),
    identifiers: p.json<string[]>(),
    position: p.json<GeoPosition>().nullable(),
    radiusMeters: p.integer(),
    ...timestampProperties(),
  },
});

export type Venue = InferEntity<typeof Venue>;
