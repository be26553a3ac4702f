import type { Orm } from '../db/orm.js';
import { secretMatches } from '../secrets/secret-token.js';
import { apiKeyLookupPrefix } from './api-key.js';
import { Tenant } from './tenant.entity.js';

interface CachedTenant {
  tenant: Tenant;
  expiresAt: number;
}

/**
 * API key → tenant, the first step of every request. Found tenants are kept in memory for a short
 * time so the hot path does not ask PostgreSQL each time; a rotated key therefore keeps working on
 * other processes for at most `ttlMs`. Unknown keys are never cached, so a new tenant works at once.
 */
export class TenantDirectory {
  private readonly cache = new Map<string, CachedTenant>();

  constructor(
    private readonly orm: Orm,
    private readonly ttlMs: number,
  ) {}

  async findByApiKey(key: string): Promise<Tenant | undefined> {
    const prefix = apiKeyLookupPrefix(key);
    if (!prefix) return undefined;
    const now = Date.now();
    const cached = this.cache.get(prefix);
    const tenant = cached && cached.expiresAt > now ? cached.tenant : await this.load(prefix, now);
    // The hash is compared on every request, cached or not: the prefix alone proves nothing.
    return tenant && secretMatches(key, tenant.apiKeyHash) ? tenant : undefined;
  }

  /** Forget a tenant at once in this process (after its key or settings change here). */
  forget(tenant: Pick<Tenant, 'apiKeyPrefix'>): void {
    this.cache.delete(tenant.apiKeyPrefix);
  }

  private async load(prefix: string, now: number): Promise<Tenant | undefined> {
    const tenant = await this.orm.em.fork().findOne(Tenant, { apiKeyPrefix: prefix });
    if (!tenant) {
      this.cache.delete(prefix);
      return undefined;
    }
    if (this.ttlMs > 0) this.cache.set(prefix, { tenant, expiresAt: now + this.ttlMs });
    return tenant;
  }
}
