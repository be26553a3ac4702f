import type { Redis } from 'ioredis';
import type { Counter } from 'prom-client';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { TimeoutError, withTimeout } from '../async/with-timeout.js';
import { Batcher } from '../queues/batcher.js';
import { DEFAULT_REDIS_FALLBACK, failOpenCounter, type FailOpenReason, type RedisFallback } from './redis-fallback.js';

export interface RateLimit {
  /** Tokens added per second: the sustained rate. */
  perSecond: number;
  /** Bucket size: how many requests may arrive at once after a quiet spell. */
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 100, burst: 400 };

/**
 * A token bucket (docs/api-conventions.md#rate-limits) in one atomic Redis script, run through
 * rate-limiter-flexible (its documented `customIncrTtlLuaScript` hook) so we keep its Redis
 * handling and result type. The library's own limiters count fixed windows, which let a burst
 * through at every window edge; a bucket refills continuously. The script receives the library's
 * arguments (points to take, whole seconds of the duration, points = bucket size, duration =
 * seconds to fill it) and answers in its format: `{consumed, msBeforeNext}`, where consumed = size
 * − tokens left (whole numbers: Redis truncates Lua numbers), and a refusal reports size + take
 * consumed without taking anything; a negative take gives tokens back (rate-limiter-flexible's
 * `reward`), never past the bucket's size. The clock is Redis's own, so every API replica refills
 * the same bucket at the same rate.
 */
const TOKEN_BUCKET_SCRIPT = `
local take = tonumber(ARGV[1])
local size = tonumber(ARGV[3])
local rate = size / tonumber(ARGV[4]) / 1000
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or size
local at = tonumber(state[2]) or now
tokens = math.min(size, tokens + math.max(0, now - at) * rate)
local ttl = math.ceil(size / rate)
if tokens < take then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {size + take, math.ceil((take - tokens) / rate)}
end
tokens = math.min(size, tokens - take)
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], ttl)
return {math.ceil(size - tokens), math.ceil((size - tokens) / rate)}
`;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again (allowed) or until the next token (refused). */
  resetSeconds: number;
}

/** More takes than this from one bucket in one turn of the event loop go to Redis in several calls. */
const MAX_TAKES_TOGETHER = 1000;

/** The bucket of one (rate, burst) in Redis, and its stand-in in this process for when Redis is away. */
interface Limiters {
  shared: RateLimiterRedis;
  local: RateLimiterMemory;
}

/**
 * One limiter per distinct (rate, burst): tenants with an override get their own. The requests of
 * one key that arrive together (one turn of the event loop: under a fleet's load, dozens) take
 * their tokens in one script call, not one each; only when the bucket cannot cover them all does
 * each take its own, so exactly as many get through as there are tokens.
 *
 * When Redis is away (docs/api-conventions.md#rate-limits) a take does not wait for it: the
 * commands connection queues commands until Redis is back (it must, for the queues), which held a
 * wallet read, a PostgreSQL read alone, for more than 10 s. A take is answered by Redis within
 * `fallback.timeoutMs`, and not asked at all while its connection, once up, is down (reconnecting);
 * either way this process's own bucket of the same size decides it and
 * `tally_rate_limit_fail_open_total` counts it. A process starting waits the bound for its first
 * connection rather than counting its first requests as an outage. rate-limiter-flexible's
 * `insuranceLimiter` does the second half only on an error, never on a wait, its
 * `rejectIfRedisNotReady` cannot tell a first connection from a lost one, and its timeout wrapper
 * reads the system's clock; so this is done here, on the injectable one.
 */
export class TokenBuckets {
  private readonly limiters = new Map<string, Limiters>();
  private readonly buckets = new Map<string, Batcher<null, RateLimitDecision>>();
  private readonly failOpen: Counter<'reason'>;
  /**
   * Whether the connection has been up: from then on, not being up is an outage. Watched from the
   * first take, not from construction, so building the app (as the OpenAPI printer does) touches
   * no connection.
   */
  private connected: boolean | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly fallback: RedisFallback = DEFAULT_REDIS_FALLBACK,
  ) {
    this.failOpen = failOpenCounter(fallback.registry);
  }

  private hasBeenUp(): boolean {
    if (this.connected === undefined) {
      this.connected = this.redis.status === 'ready';
      if (!this.connected) this.redis.once('ready', () => (this.connected = true));
    }
    return this.connected;
  }

  take(key: string, limit: RateLimit): Promise<RateLimitDecision> {
    const id = `${limit.perSecond}:${limit.burst}:${key}`;
    let bucket = this.buckets.get(id);
    if (!bucket) {
      const limiters = this.limiter(limit);
      // A key's batcher lives for one batch: kept, the map would hold every key ever limited (each
      // client address of a flood of bad API keys) for the life of the process.
      bucket = new Batcher(
        (takes) => {
          this.buckets.delete(id);
          return this.takeTogether(limiters, key, limit, takes.length);
        },
        MAX_TAKES_TOGETHER,
        0,
      );
      this.buckets.set(id, bucket);
    }
    return bucket.add(null);
  }

  private limiter(limit: RateLimit): Limiters {
    const id = `${limit.perSecond}:${limit.burst}`;
    let limiters = this.limiters.get(id);
    if (!limiters) {
      const keyPrefix = `${this.keyPrefix}:rate:${id}`;
      const duration = limit.burst / limit.perSecond;
      limiters = {
        shared: new RateLimiterRedis({
          storeClient: this.redis,
          keyPrefix,
          points: limit.burst,
          duration,
          customIncrTtlLuaScript: TOKEN_BUCKET_SCRIPT,
        }),
        // A fixed window of the bucket's size and fill time: the same sustained rate and burst.
        local: new RateLimiterMemory({ keyPrefix, points: limit.burst, duration }),
      };
      this.limiters.set(id, limiters);
    }
    return limiters;
  }

  /** `count` tokens at once; the first request is told the most tokens remain, as if they came one by one. */
  private async takeTogether(
    limiters: Limiters,
    key: string,
    limit: RateLimit,
    count: number,
  ): Promise<RateLimitDecision[]> {
    try {
      const result = await this.consume(limiters, key, count);
      return Array.from({ length: count }, (_, index) => decision(true, limit, result, count - 1 - index));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      if (count === 1) return [decision(false, limit, rejection)];
      return Promise.all(
        Array.from({ length: count }, () => this.takeTogether(limiters, key, limit, 1).then(([one]) => one!)),
      );
    }
  }

  /** Redis's bucket, else this process's: resolves when allowed, rejects with a RateLimiterRes when refused. */
  private async consume(limiters: Limiters, key: string, count: number): Promise<RateLimiterRes> {
    if (this.hasBeenUp() && this.redis.status !== 'ready')
      return this.consumeLocally(limiters, key, count, 'unavailable');
    const shared = limiters.shared.consume(key, count);
    try {
      return await withTimeout(shared, this.fallback.timeoutMs, this.fallback.clock);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw error;
      if (error instanceof TimeoutError) giveBackWhenTaken(limiters.shared, shared, key, count);
      return this.consumeLocally(limiters, key, count, error instanceof TimeoutError ? 'timeout' : 'unavailable');
    }
  }

  private async consumeLocally(
    limiters: Limiters,
    key: string,
    count: number,
    reason: FailOpenReason,
  ): Promise<RateLimiterRes> {
    try {
      const result = await limiters.local.consume(key, count);
      this.failOpen.inc({ reason }, count);
      return result;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      // As in Redis's script, a refusal takes nothing; a refused batch's takes come again one by
      // one, and are counted then.
      await limiters.local.reward(key, count);
      if (count === 1) this.failOpen.inc({ reason });
      throw refusal;
    }
  }
}

/**
 * A take that lost to the bound was sent all the same, and a slow Redis still runs it: then the
 * request would cost a token in Redis's bucket besides the one this process's bucket took when it
 * decided. Its tokens are given back to Redis once it answers, so a request costs one token, in the
 * bucket that answered it. A take Redis refused took nothing; a give-back that fails (Redis gone
 * meanwhile) leaves the token spent, as it was before.
 */
function giveBackWhenTaken(bucket: RateLimiterRedis, take: Promise<RateLimiterRes>, key: string, count: number): void {
  take.then(
    () => bucket.reward(key, count).catch(() => undefined),
    () => undefined,
  );
}

function decision(allowed: boolean, limit: RateLimit, result: RateLimiterRes, takenAfter = 0): RateLimitDecision {
  return {
    allowed,
    limit: limit.burst,
    remaining: Math.floor(result.remainingPoints) + takenAfter,
    resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
  };
}

/** A tenant's `configuration.rateLimit` override, when it is well formed. */
export function tenantRateLimit(configuration: Record<string, unknown> | undefined): RateLimit {
  const override = configuration?.rateLimit as Partial<RateLimit> | undefined;
  const perSecond = override?.perSecond;
  const burst = override?.burst ?? perSecond;
  if (typeof perSecond === 'number' && typeof burst === 'number' && perSecond > 0 && burst >= perSecond) {
    return { perSecond, burst };
  }
  return DEFAULT_RATE_LIMIT;
}
