import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

/**
 * One remote key set per JWKS address, kept for the life of the process. jose caches the keys
 * and refetches on an unknown `kid`; decisions.md §2 limits that refetch to once a minute.
 */
export class JwksCache {
  private readonly sets = new Map<string, JWTVerifyGetKey>();

  get(url: string): JWTVerifyGetKey {
    let set = this.sets.get(url);
    if (!set) {
      set = createRemoteJWKSet(new URL(url), { cooldownDuration: 60_000, cacheMaxAge: 10 * 60_000, timeoutDuration: 5000 });
      this.sets.set(url, set);
    }
    return set;
  }
}
