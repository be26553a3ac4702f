import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { FilteredRequester } from '../http/filtered-request.js';

/** A key set is a few keys: far more than any real JWKS, far less than memory worth defending. */
const MAX_JWKS_BYTES = 256 * 1024;
/** docs/api-conventions.md#authentication: an unknown `kid` refetches the key set at most once a minute. */
const REFETCH_COOLDOWN_MS = 60_000;

/**
 * One remote key set per JWKS address, kept for the life of the process. jose caches the keys and
 * refetches on an unknown `kid`; docs/api-conventions.md#authentication limits that refetch to once
 * a minute. The address is a tenant's, so it is fetched through the private-address filter like
 * every other outbound request.
 */
export class JwksCache {
  private readonly sets = new Map<string, JWTVerifyGetKey>();
  private readonly fetchKeys: ReturnType<FilteredRequester['fetcher']>;

  constructor(allowPrivateAddresses: boolean) {
    this.fetchKeys = new FilteredRequester(allowPrivateAddresses).fetcher(MAX_JWKS_BYTES);
  }

  get(url: string): JWTVerifyGetKey {
    let set = this.sets.get(url);
    if (!set) {
      set = createRemoteJWKSet(new URL(url), {
        cooldownDuration: REFETCH_COOLDOWN_MS,
        cacheMaxAge: 10 * 60_000,
        timeoutDuration: 5000,
        [customFetch]: this.fetchKeys,
      });
      this.sets.set(url, set);
    }
    return set;
  }
}
