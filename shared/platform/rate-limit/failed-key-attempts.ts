import { withTimeout } from '../async/with-timeout.js';
import { TtlCache } from '../cache/ttl-cache.js';
import type { RateLimit, TokenBuckets } from './token-bucket.js';

/** How long a failed attempt waits for Redis to count it. */
const COUNT_TIMEOUT_MS = 500;

/** Failed API key attempts one client address may make: a misconfigured client's retries pass, a guessing loop does not. */
export const FAILED_KEY_LIMIT: RateLimit = { perSecond: 1, burst: 30 };

/**
 * Each client address's failed API key attempts, counted in a token bucket in Redis (issue 17: a
 * thousand random keys were a thousand 403s, never limited). An address that has spent its bucket
 * has its failures answered 429 until the bucket's next token; this process remembers that, so
 * they cost no Redis round trip meanwhile. An IPv6 client is counted by its /64, the block one
 * host is usually given, so that changing addresses within it buys no new attempts.
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
    const until = this.blockedUntil.get(clientBlock(address));
    return until === undefined ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000));
  }

  /**
   * Records a failed attempt: the whole seconds the address must now wait, 0 when it may go on.
   * When Redis does not count it within a moment, the attempt is let go uncounted: a wrong key is
   * answered 403 then, as it always was, rather than waiting on Redis's return.
   */
  async fail(address: string): Promise<number> {
    const block = clientBlock(address);
    const decision = await withTimeout(this.buckets.take(`failed-key:${block}`, this.limit), COUNT_TIMEOUT_MS).catch(
      () => undefined,
    );
    if (!decision || decision.allowed) return 0;
    this.blockedUntil.set(block, Date.now() + decision.resetSeconds * 1000, decision.resetSeconds * 1000);
    return decision.resetSeconds;
  }
}

/** An IPv4 address as it is (IPv4-mapped IPv6 included), an IPv6 address as its /64. */
export function clientBlock(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
