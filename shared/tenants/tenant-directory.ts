import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import { SecretCheck } from '../platform/secrets/secret-token.js';
import { apiKeyLookupPrefix } from './api-key.js';
import { Tenant } from './tenant.entity.js';

/**
 * API key → tenant, the first step of every request. Found tenants are kept in memory for a short
 * time so the hot path does not ask PostgreSQL each time; a rotated key therefore keeps working on
 * other processes for at most `ttlMs`. Unknown key prefixes are remembered too, apart and in a
 * smaller cache, so a client repeating a revoked or mistyped key costs one query per lifetime, and
 * made-up keys cannot push real tenants out; a new tenant (or rotated key) still works at once,
 * its prefix being random and never asked for before. A tenant changed here (its settings, disabled)
 * is forgotten at once; other processes see the change within `ttlMs` (docs/tenant.md#when-a-change-applies).
 */
export class TenantDirectory {
  private readonly cache: TtlCache<{ tenant: Tenant; key: SecretCheck }>;
  private readonly unknown: TtlCache<true>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
    this.unknown = new TtlCache(ttlMs, 10_000);
  }

  async findByApiKey(key: string): Promise<Tenant | undefined> {
    const prefix = apiKeyLookupPrefix(key);
    if (!prefix) return undefined;
    if (this.unknown.get(prefix)) return undefined;
    const found = await this.cache.getOrLoad(prefix, () => this.load(prefix));
    // The key is checked on every request, cached or not: the prefix alone proves nothing.
    return found?.key.matches(key) ? found.tenant : undefined;
  }

  /** Drops a tenant cached under its key prefix: this process sees a change at its next request. */
  forget(prefix: string): void {
    this.cache.delete(prefix);
  }

  private async load(prefix: string): Promise<{ tenant: Tenant; key: SecretCheck } | undefined> {
    const tenant = await this.orm.em.fork().findOne(Tenant, { apiKeyPrefix: prefix });
    if (!tenant) {
      this.unknown.set(prefix, true);
      return undefined;
    }
    return { tenant, key: new SecretCheck(tenant.apiKeyHash) };
  }
}
