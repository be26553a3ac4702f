import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

/**
 * One remote key set per JWKS address, kept for the life of the process. jose caches the keys
 * and refetches on an unknown `kid`; decisions.md §2 limits that refetch to once a minute.
 */
export class JwksCache {
  private readonly sets = new Map<string, JWTVerifyGetKey>();

  /** `refetchCooldownMs`: decisions.md §2's minute; tests shorten it to see the refetch happen. */
  constructor(private readonly refetchCooldownMs = 60_000) {}

  get(url: string): JWTVerifyGetKey {
    let set = this.sets.get(url);
    if (!set) {
      set = createRemoteJWKSet(new URL(url), { cooldownDuration: this.refetchCooldownMs, cacheMaxAge: 10 * 60_000, timeoutDuration: 5000 });
      this.sets.set(url, set);
    }
    return set;
  }
}
