import { TtlCache } from '../cache/ttl-cache.js';
import type { Orm } from '../db/orm.js';
import type { VenueArea } from './venue-matches.js';
import { Venue } from './venue.entity.js';

/** Each tenant's venues by id, cached for `ttlMs`; a change made through this process is seen at once (`forget`). */
export class VenueDirectory {
  private readonly cache: TtlCache<ReadonlyMap<string, VenueArea>>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs, 10_000);
  }

  async forTenant(tenantId: string): Promise<ReadonlyMap<string, VenueArea>> {
    const cached = this.cache.get(tenantId);
    if (cached) return cached;
    const venues = await this.orm.em.fork().find(Venue, { tenant: tenantId });
    const areas = new Map<string, VenueArea>(venues.map((venue) => [venue.id, { identifiers: venue.identifiers, position: venue.position ?? null, radiusMeters: venue.radiusMeters }]));
    this.cache.set(tenantId, areas);
    return areas;
  }

  forget(tenantId: string): void {
    this.cache.delete(tenantId);
  }
}
