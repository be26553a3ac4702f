import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import { Venue, type GeoPosition } from './venue.entity.js';

/** What a rule needs of a venue to tell whether a transaction was made there (rules/venue-matches.ts). */
export interface VenueArea {
  identifiers: string[];
  position: GeoPosition | null;
  radiusMeters: number;
}

/** Each tenant's venues by id, cached for `ttlMs`; a change made through this process is seen at once (`forget`). */
export class VenueDirectory {
  private readonly cache: TtlCache<ReadonlyMap<string, VenueArea>>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs, 10_000);
  }

  forTenant(tenantId: string): Promise<ReadonlyMap<string, VenueArea>> {
    return this.cache.getOrLoad(tenantId, async () => {
      const venues = await this.orm.em.fork().find(Venue, { tenant: tenantId });
      return new Map(
        venues.map((venue) => [
          venue.id,
          { identifiers: venue.identifiers, position: venue.position ?? null, radiusMeters: venue.radiusMeters },
        ]),
      );
    });
  }

  forget(tenantId: string): void {
    this.cache.delete(tenantId);
  }
}
