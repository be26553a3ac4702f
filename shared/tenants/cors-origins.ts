import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import type { TenantConfiguration } from './tenant.entity.js';

/**
 * An origin as a browser sends it in `Origin`: scheme, host and port, lower case, no path or
 * trailing slash (`https://Shop.example/` is `https://shop.example`); undefined for anything else
 * (`null`, a path alone, text).
 */
export function normalisedOrigin(value: string): string | undefined {
  try {
    const { origin, protocol } = new URL(value);
    return origin !== 'null' && (protocol === 'https:' || protocol === 'http:') ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a tenant's `configuration.corsOrigins` lists `origin` (docs/api-conventions.md#browsers). */
export function tenantAllowsOrigin(configuration: TenantConfiguration, origin: string): boolean {
  const allowed = configuration.corsOrigins;
  const wanted = normalisedOrigin(origin);
  return wanted !== undefined && Array.isArray(allowed) && allowed.some((entry) => normalisedOrigin(entry) === wanted);
}

/**
 * The origins any tenant allows, for preflights, which carry no API key and so name no tenant
 * (docs/api-conventions.md#browsers). All of them are read in one query, kept `ttlMs`, and shared by
 * the preflights asking meanwhile: a flood of preflights from made-up origins costs PostgreSQL
 * one query per `ttlMs`, not one per origin.
 */
export class CorsOrigins {
  private readonly cache: TtlCache<ReadonlySet<string>>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs, 1);
  }

  async allowedByAnyTenant(origin: string): Promise<boolean> {
    const wanted = normalisedOrigin(origin);
    if (wanted === undefined) return false;
    const origins = await this.cache.getOrLoad('all', () => this.load());
    return origins.has(wanted);
  }

  private async load(): Promise<ReadonlySet<string>> {
    const rows: { origin: string }[] = await this.orm.em
      .fork()
      .getConnection()
      .execute(
        `select distinct jsonb_array_elements_text(configuration->'corsOrigins') as origin
           from tenant where jsonb_typeof(configuration->'corsOrigins') = 'array'`,
      );
    const origins = new Set<string>();
    for (const { origin } of rows) {
      const normalised = normalisedOrigin(origin);
      if (normalised !== undefined) origins.add(normalised);
    }
    return origins;
  }
}
