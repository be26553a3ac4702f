import { TtlCache } from '../cache/ttl-cache.js';
import type { Orm } from '../db/orm.js';
import { secretMatches } from '../secrets/secret-token.js';
import { apiKeyLookupPrefix } from './api-key.js';
import { Tenant } from './tenant.entity.js';

/**
 * API key → tenant, the first step of every request. Found tenants are kept in memory for a short
 * time so the hot path does not ask PostgreSQL each time; a rotated key therefore keeps working on
 * other processes for at most `ttlMs`. Unknown key prefixes are remembered as unknown too, so a
 * flood of made-up keys does not become a flood of PostgreSQL queries; a new tenant (or rotated
 * key) still works at once, its prefix being random and never asked for before.
 */
export class TenantDirectory {
  /** null: no tenant has this prefix. */
  private readonly cache: TtlCache<Tenant | null>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async findByApiKey(key: string): Promise<Tenant | undefined> {
    const prefix = apiKeyLookupPrefix(key);
    if (!prefix) return undefined;
    const cached = this.cache.get(prefix);
    const tenant = cached === undefined ? await this.load(prefix) : cached;
    // The hash is compared on every request, cached or not: the prefix alone proves nothing.
    return tenant && secretMatches(key, tenant.apiKeyHash) ? tenant : undefined;
  }

  private async load(prefix: string): Promise<Tenant | null> {
    const tenant = await this.orm.em.fork().findOne(Tenant, { apiKeyPrefix: prefix });
    this.cache.set(prefix, tenant);
    return tenant;
  }
}
