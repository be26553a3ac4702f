import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import { Batcher } from '../platform/queues/batcher.js';
import { lookupReferencedUser, lookupUsers, type MemberReference } from './lookup-user.js';
import { User } from './user.entity.js';

interface SubjectLookup {
  tenantId: string;
  subject: string | number;
}

/** Misses of one turn looked up together, at most this many in one query. */
const MAX_LOOKUPS_PER_QUERY = 200;

/**
 * Member by the forms an event's subject takes (see lookupUser), or by the authIdentifier a
 * receipt claim names, cached briefly for the hot paths.
 * Members are never deleted (DELETE erases the profile only), so a cached id stays right; the
 * profile shown may lag by the cache's lifetime, except after a change made through this process
 * (`forget`). Misses are not cached: a new member works at once.
 * The lookups of one turn of the event loop (misses, and the cache's reloads of entries in use)
 * go to PostgreSQL together, one query per tenant: loaded one by one, a fleet's members cost about
 * a millisecond of CPU each, so the reloads of a cache warmed in one burst held the API back for
 * a second every time they came due.
 */
export class SubjectDirectory {
  private readonly cache: TtlCache<User>;
  private readonly lookups: Batcher<SubjectLookup, User | null>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs);
    this.lookups = new Batcher((lookups) => this.lookUp(lookups), MAX_LOOKUPS_PER_QUERY, 0);
  }

  async find(tenantId: string, subject: string | number): Promise<User | undefined> {
    return this.cached(cacheKey(tenantId, subject), () => this.lookups.add({ tenantId, subject }));
  }

  /**
   * The member a reference names (lookup-user.ts): a user token's sub (a public event's reporter, a
   * receipt claim's) by its authIdentifier, or an admin's `submitter` by the identifier it says.
   */
  async findReferenced(tenantId: string, reference: MemberReference): Promise<User | undefined> {
    return this.cached(referenceKey(tenantId, reference), () =>
      lookupReferencedUser(this.orm.em.fork(), tenantId, reference),
    );
  }

  private async cached(key: string, load: () => Promise<User | null>): Promise<User | undefined> {
    return this.cache.getOrLoad(key, async () => (await load()) ?? undefined);
  }

  private async lookUp(lookups: SubjectLookup[]): Promise<(User | null)[]> {
    const byTenant = new Map<string, number[]>();
    for (const [index, { tenantId }] of lookups.entries()) {
      const indexes = byTenant.get(tenantId);
      if (indexes) indexes.push(index);
      else byTenant.set(tenantId, [index]);
    }
    const found: (User | null)[] = [];
    await Promise.all(
      [...byTenant].map(async ([tenantId, indexes]) => {
        const members = await lookupUsers(
          this.orm.em.fork(),
          tenantId,
          indexes.map((index) => lookups[index]!.subject),
        );
        indexes.forEach((index, position) => (found[index] = members[position]!));
      }),
    );
    return found;
  }

  /** After the member changed (PATCH, erasure): under every form its subject and its references may take. */
  forget(user: Pick<User, 'id' | 'authIdentifier' | 'accountNumber'> & { tenant: { id: string } }): void {
    const tenantId = user.tenant.id;
    for (const subject of [user.id, user.authIdentifier, String(user.accountNumber), user.accountNumber]) {
      this.cache.delete(cacheKey(tenantId, subject));
    }
    for (const reference of [
      { id: user.id },
      { authIdentifier: user.authIdentifier },
      { accountNumber: user.accountNumber },
    ])
      this.cache.delete(referenceKey(tenantId, reference));
  }
}

/**
 * Apart from the subjects' keys: a reference names its member by the one identifier it says, so an
 * authIdentifier that looks like another member's id or account number is still only an authIdentifier.
 */
function referenceKey(tenantId: string, reference: MemberReference): string {
  const [field, value] = Object.entries(reference)[0] as [string, string | number];
  return `${tenantId}:${field}:${field === 'id' ? String(value).toLowerCase() : value}`;
}

/** A string and a number subject differ: `"42"` may be an authIdentifier, `42` is an account number. */
function cacheKey(tenantId: string, subject: string | number): string {
  return `${tenantId}:${typeof subject}:${subject}`;
}
