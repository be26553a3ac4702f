import { TtlCache } from '../cache/ttl-cache.js';
import type { Orm } from '../db/orm.js';
import { secretMatches } from '../secrets/secret-token.js';
import { apiKeyLookupPrefix } from './api-key.js';
import { Tenant } from './tenant.entity.js';

/**
 * API key → tenant, the first step of every request. Found tenants are kept in memory for a short
 * time so the hot path does not ask PostgreSQL each time; a rotated key therefore keeps working on
 * other processes for at most `ttlMs`. Unknown keys are never cached, so a new tenant works at once.
 */
export class TenantDirectory {
  private readonly cache: TtlCache<Tenant>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async findByApiKey(key: string): Promise<Tenant | undefined> {
    const prefix = apiKeyLookupPrefix(key);
    if (!prefix) return undefined;
    const tenant = this.cache.get(prefix) ?? (await this.load(prefix));
    // The hash is compared on every request, cached or not: the prefix alone proves nothing.
    return tenant && secretMatches(key, tenant.apiKeyHash) ? tenant : undefined;
  }

  private async load(prefix: string): Promise<Tenant | undefined> {
    const tenant = await this.orm.em.fork().findOne(Tenant, { apiKeyPrefix: prefix });
    if (tenant) this.cache.set(prefix, tenant);
    return tenant ?? undefined;
  }
}
