import { TtlCache } from '../cache/ttl-cache.js';
import type { RateLimit, TokenBuckets } from './token-bucket.js';

/** Failed API key attempts one client address may make: a misconfigured client's retries pass, a guessing loop does not. */
export const FAILED_KEY_LIMIT: RateLimit = { perSecond: 1, burst: 30 };

/**
 * Each client address's failed API key attempts, counted in a token bucket in Redis (issue 17: a
 * thousand random keys were a thousand 403s, each a PostgreSQL lookup, never limited). An address
 * that has spent its bucket is refused until the bucket's next token; this process remembers
 * that, so its requests are refused before any lookup.
 */
export class FailedKeyAttempts {
  /** Address → when it may try again (ms since the epoch). Bounded, so a flood of addresses cannot grow it without end. */
  private readonly blockedUntil = new TtlCache<number>(60_000, 100_000);

  constructor(
    private readonly buckets: TokenBuckets,
    private readonly limit: RateLimit = FAILED_KEY_LIMIT,
  ) {}

  /** Whole seconds until the address may try again; 0 when it may now. */
  blockedFor(address: string): number {
    const until = this.blockedUntil.get(address);
    return until === undefined ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000));
  }

  /** Records a failed attempt: the whole seconds the address must now wait, 0 when it may go on. */
  async fail(address: string): Promise<number> {
    const decision = await this.buckets.take(`failed-key:${address}`, this.limit);
    if (decision.allowed) return 0;
    this.blockedUntil.set(address, Date.now() + decision.resetSeconds * 1000, decision.resetSeconds * 1000);
    return decision.resetSeconds;
  }
}
