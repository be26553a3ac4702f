import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';

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
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    name: p.string().length(256),
    identifiers: p.json<string[]>(),
    position: p.json<GeoPosition>().nullable(),
    radiusMeters: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type Venue = InferEntity<typeof Venue>;
