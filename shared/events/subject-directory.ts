import { TtlCache } from '../cache/ttl-cache.js';
import type { Orm } from '../db/orm.js';
import { lookupUser } from '../users/lookup-user.js';
import { User } from '../users/user.entity.js';

/**
 * Member by the forms an event's subject takes (see lookupUser), or by the authIdentifier a
 * receipt claim names, cached briefly for the hot paths.
 * Members are never deleted (DELETE erases the profile only), so a cached id stays right; the
 * profile shown may lag by the cache's lifetime, except after a change made through this process
 * (`forget`). Misses are not cached: a new member works at once.
 */
export class SubjectDirectory {
  private readonly cache: TtlCache<User>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async find(tenantId: string, subject: string | number): Promise<User | undefined> {
    return this.cached(cacheKey(tenantId, subject), () => lookupUser(this.orm.em.fork(), tenantId, subject));
  }

  /** The member a receipt claim is for (a user token's sub, an admin's `submitter`): by authIdentifier only. */
  async findByAuthIdentifier(tenantId: string, authIdentifier: string): Promise<User | undefined> {
    return this.cached(authIdentifierKey(tenantId, authIdentifier), () => this.orm.em.fork().findOne(User, { tenant: tenantId, authIdentifier }));
  }

  private async cached(key: string, load: () => Promise<User | null>): Promise<User | undefined> {
    return this.cache.getOrLoad(key, async () => (await load()) ?? undefined);
  }

  /** After the member changed (PATCH, erasure): under every form its subject may take. */
  forget(user: Pick<User, 'id' | 'authIdentifier' | 'accountNumber'> & { tenant: { id: string } }): void {
    const tenantId = user.tenant.id;
    for (const subject of [user.id, user.authIdentifier, String(user.accountNumber), user.accountNumber]) {
      this.cache.delete(cacheKey(tenantId, subject));
    }
    this.cache.delete(authIdentifierKey(tenantId, user.authIdentifier));
  }
}

/** Apart from the subjects' keys: an authIdentifier that looks like another member's id or account number is still only an authIdentifier. */
function authIdentifierKey(tenantId: string, authIdentifier: string): string {
  return `${tenantId}:authIdentifier:${authIdentifier}`;
}

/** A string and a number subject differ: `"42"` may be an authIdentifier, `42` is an account number. */
function cacheKey(tenantId: string, subject: string | number): string {
  return `${tenantId}:${typeof subject}:${subject}`;
}
