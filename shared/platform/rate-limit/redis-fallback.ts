import { Registry, type Counter } from 'prom-client';
import { systemClock, type Clock } from '../async/clock.js';
import { counterIn } from '../metrics/metrics.js';

/** How long a take waits for Redis by default (RATE_LIMIT_REDIS_TIMEOUT_MS, docs/operations.md#configuration). */
export const DEFAULT_REDIS_TIMEOUT_MS = 250;

export const FAIL_OPEN_METRIC = 'tally_rate_limit_fail_open_total';

/**
 * What the token buckets do when Redis is away (docs/api-conventions.md#rate-limits): a take waits
 * for Redis at most `timeoutMs` on `clock`, and not at all while the connection is known to be
 * down; then this process's own buckets decide it, and the metric counts it.
 */
export interface RedisFallback {
  timeoutMs: number;
  clock: Clock;
  /** Where the metric is registered: the process's (context.metrics.registry); a private one when absent. */
  registry?: Registry;
}

export type FailOpenReason = 'timeout' | 'unavailable';

/** The takes decided without Redis, by why: Redis did not answer in time, or its connection was down or failed. */
export function failOpenCounter(registry: Registry = new Registry()): Counter<'reason'> {
  return counterIn(registry, {
    name: FAIL_OPEN_METRIC,
    help: "Rate-limit takes decided by this process's own buckets because Redis was down or did not answer in time, by reason",
    labelNames: ['reason'],
  });
}

export const DEFAULT_REDIS_FALLBACK: RedisFallback = { timeoutMs: DEFAULT_REDIS_TIMEOUT_MS, clock: systemClock };
