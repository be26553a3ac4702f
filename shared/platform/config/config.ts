import { LOG_FORMATS, type LogFormat } from '../logging/logger.js';
import { DEFAULT_REDIS_TIMEOUT_MS } from '../rate-limit/redis-fallback.js';
import { ConfigError, isDevelopment, type Environment } from './environment.js';
import { platformTokenSecret } from './platform-secret.js';

/** Settings of one process, read once from the environment at start (docs/operations.md#configuration). */
export interface Config {
  port: number;
  /** Where a worker-only process (`npm run start:worker`) serves /health, /ready and /metrics. */
  workerPort: number;
  /** When set, /metrics is served on this port alone and no longer on PORT or WORKER_PORT. */
  metricsPort: number | undefined;
  databaseUrl: string;
  redisUrl: string;
  publicBaseUrl: string;
  platformTokenSecret: string;
  logLevel: string;
  logFormat: LogFormat;
  fetchAllowPrivateAddresses: boolean;
  /** Which service's routes this process serves. */
  service: 'all' | 'receipts' | 'rewards';
  /** Prefix of every Redis key the platform writes (queues, rate limits); tests give each file its own. */
  redisPrefix: string;
  /** How long SIGTERM waits for in-flight requests and jobs before giving up. */
  shutdownTimeoutMs: number;
  /** How long hot-path lookups (API key → tenant, event types, reactors, webhook subscriptions) are trusted before PostgreSQL is asked again. */
  cacheTtlMs: number;
  /**
   * The same for members by subject, trusted longer: a member's ids never change and members are
   * never deleted, so only the profile echoed in POST /events answers may lag; at a fleet's rate
   * every member's lookup lapsing every few seconds costs PostgreSQL round trips on the hot path.
   */
  memberCacheTtlMs: number;
  /**
   * How long a worker's lock on a job lasts without renewal (renewed every half of it). A worker
   * that dies (SIGKILL, lost machine) leaves its jobs locked this long; then the next stalled-job
   * check hands them to another worker.
   */
  workerLockMs: number;
  /** How often workers look for jobs whose lock lapsed; at most `workerLockMs` (see jobRecoveryBoundMs). */
  workerStalledCheckMs: number;
  /** How long POST /receipts waits for a preparsed claim's automated decision (docs/receipts.md#claims). */
  receiptDecisionWaitMs: number;
  /** How long POST /purchases waits for a PARTNER2 order's confirmation (docs/rewards.md#partner-products). */
  partnerConfirmWaitMs: number;
  /** The first partner order retry's delay; each next one doubles it (shared/rewards/partner-order-job.ts). */
  partnerRetryBaseMs: number | undefined;
  /** How many lines of a bulk points adjustment one transaction applies (docs/points.md#bulk-adjustments). */
  pointsAdjustmentBatch: number;
  /**
   * The first webhook retry's delay; each next one doubles it. Unset, the webhooks feature spreads
   * its retries over 24 h (shared/webhooks/webhook-job.ts).
   */
  webhookRetryBaseMs: number | undefined;
  /**
   * How long an Idempotency-Key's claim lasts without renewal. A request that dies with it (SIGKILL,
   * lost machine) blocks retries with 409 this long; then a retry takes it over and finishes the
   * work under the ids the claim reserved.
   */
  idempotencyLeaseMs: number;
  /**
   * The time one claim's image may take to fetch, over all its attempts and redirects (decisions §9:
   * 10 s): a host that never answers, trickles bytes or redirects slowly fails the claim within
   * this, rather than holding an OCR slot for it on every attempt.
   */
  imageFetchBudgetMs: number;
  /** Which OCR engine reads default-mode claims (docs/receipts.md#ocr). */
  ocrEngine: (typeof OCR_ENGINES)[number];
  /** The longest lifetime `tally token admin --ttl` grants, in seconds (docs/operations.md#cli). */
  adminTokenMaxTtlSeconds: number;
  /**
   * How long a request waits for Redis to take its rate-limit token before this process's own
   * bucket decides (docs/api-conventions.md#rate-limits): a Redis outage costs a request at most this.
   */
  rateLimitRedisTimeoutMs: number;
  /** How often the points expiry sweep runs (docs/points.md#the-sweep). */
  pointsExpiryEveryMs: number;
  /** Lots the expiry sweep expires per transaction: a killed sweep loses at most one batch's work. */
  pointsExpiryBatchSize: number;
  /**
   * How long a connection closed after its answer while the client still sends its body (a 413) is
   * read and its bytes discarded, so that the client reads the answer (api/lingering-close.ts): at
   * most `lingeringTimeMs` in all, `lingeringTimeoutMs` without a byte, `lingeringBytes` bytes.
   */
  lingeringTimeMs: number;
  lingeringTimeoutMs: number;
  lingeringBytes: number;
}

const SERVICES = ['all', 'receipts', 'rewards'] as const;
export const OCR_ENGINES = ['paddle', 'tesseract'] as const;

/** `stdoutIsTerminal`: whether a person reads the process's stdout, which picks the logs' format when LOG_FORMAT is unset. */
export function loadConfig(env: Environment = process.env, stdoutIsTerminal = process.stdout.isTTY === true): Config {
  const service = env.SERVICE ?? 'all';
  if (!(SERVICES as readonly string[]).includes(service)) {
    throw new ConfigError(`SERVICE must be one of ${SERVICES.join(', ')}, not "${service}"`);
  }
  const ocrEngine = env.OCR_ENGINE ?? 'paddle';
  if (!(OCR_ENGINES as readonly string[]).includes(ocrEngine)) {
    throw new ConfigError(`OCR_ENGINE must be one of ${OCR_ENGINES.join(', ')}, not "${ocrEngine}"`);
  }
  return {
    port: integer(env, 'PORT', 3000),
    workerPort: integer(env, 'WORKER_PORT', 3001),
    metricsPort: optionalInteger(env, 'METRICS_PORT'),
    databaseUrl: databaseUrl(env),
    redisUrl: redisUrl(env),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    platformTokenSecret: platformTokenSecret(env),
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: logFormat(env, stdoutIsTerminal),
    fetchAllowPrivateAddresses: boolean(env, 'FETCH_ALLOW_PRIVATE_ADDRESSES', false),
    service: service as Config['service'],
    redisPrefix: env.REDIS_PREFIX ?? 'tally',
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 25_000),
    cacheTtlMs: integer(env, 'CACHE_TTL_MS', 5_000),
    memberCacheTtlMs: integer(env, 'MEMBER_CACHE_TTL_MS', 30_000),
    ...workerLocks(env),
    webhookRetryBaseMs: optionalInteger(env, 'WEBHOOK_RETRY_BASE_MS'),
    receiptDecisionWaitMs: integer(env, 'RECEIPT_DECISION_WAIT_MS', 2000),
    partnerConfirmWaitMs: integer(env, 'PARTNER_CONFIRM_WAIT_MS', 2000),
    partnerRetryBaseMs: optionalInteger(env, 'PARTNER_RETRY_BASE_MS'),
    pointsAdjustmentBatch: integer(env, 'POINTS_ADJUSTMENT_BATCH', 1000),
    idempotencyLeaseMs: integer(env, 'IDEMPOTENCY_LEASE_MS', 30_000),
    imageFetchBudgetMs: integer(env, 'IMAGE_FETCH_BUDGET_MS', 10_000),
    ocrEngine: ocrEngine as Config['ocrEngine'],
    adminTokenMaxTtlSeconds: lifetime(env, 'ADMIN_TOKEN_MAX_TTL', '24h'),
    rateLimitRedisTimeoutMs: integer(env, 'RATE_LIMIT_REDIS_TIMEOUT_MS', DEFAULT_REDIS_TIMEOUT_MS),
    ...pointsExpiry(env),
    lingeringTimeMs: integer(env, 'LINGERING_TIME_MS', 30_000),
    lingeringTimeoutMs: integer(env, 'LINGERING_TIMEOUT_MS', 5_000),
    lingeringBytes: integer(env, 'LINGERING_BYTES', 64 * 1024 * 1024),
  };
}

/**
 * docs/operations.md#logs: LOG_FORMAT when set; else lines for a person when one reads stdout (a
 * terminal) in development, and JSON lines for whatever collects them anywhere else.
 */
function logFormat(env: Environment, stdoutIsTerminal: boolean): LogFormat {
  const format = env.LOG_FORMAT;
  if (format === undefined || format === '') return stdoutIsTerminal && isDevelopment(env) ? 'pretty' : 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(format))
    throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, not "${format}"`);
  return format as LogFormat;
}

/**
 * docs/operations.md#durability: a killed worker's jobs run again within 25 s by default (lock plus stalled check). The lock
 * is renewed every half of its duration, one Redis round trip per worker for all its jobs, so a
 * shorter lock costs more round trips; and a job whose process stalls longer than the lock (a
 * blocked event loop) is run a second time meanwhile, which is safe, as every job is idempotent by a
 * natural key, but wasted work.
 */
export const DEFAULT_WORKER_LOCK_MS = 15_000;
export const DEFAULT_WORKER_STALLED_CHECK_MS = 10_000;

function workerLocks(env: Environment): Pick<Config, 'workerLockMs' | 'workerStalledCheckMs'> {
  const workerLockMs = integer(env, 'WORKER_LOCK_MS', DEFAULT_WORKER_LOCK_MS);
  const workerStalledCheckMs = integer(env, 'WORKER_STALLED_CHECK_MS', DEFAULT_WORKER_STALLED_CHECK_MS);
  if (workerLockMs === 0 || workerStalledCheckMs === 0)
    throw new ConfigError('WORKER_LOCK_MS and WORKER_STALLED_CHECK_MS must be more than 0');
  if (workerStalledCheckMs > workerLockMs)
    throw new ConfigError(
      `WORKER_STALLED_CHECK_MS (${workerStalledCheckMs}) must not exceed WORKER_LOCK_MS (${workerLockMs}): a job would wait for a second check`,
    );
  return { workerLockMs, workerStalledCheckMs };
}

/** Hourly by default: an expiry is due to the second, but a point shown an hour longer harms no one. */
export const DEFAULT_POINTS_EXPIRY_EVERY_MS = 3_600_000;
export const DEFAULT_POINTS_EXPIRY_BATCH_SIZE = 1000;

function pointsExpiry(env: Environment): Pick<Config, 'pointsExpiryEveryMs' | 'pointsExpiryBatchSize'> {
  const pointsExpiryEveryMs = integer(env, 'POINTS_EXPIRY_EVERY_MS', DEFAULT_POINTS_EXPIRY_EVERY_MS);
  const pointsExpiryBatchSize = integer(env, 'POINTS_EXPIRY_BATCH_SIZE', DEFAULT_POINTS_EXPIRY_BATCH_SIZE);
  if (pointsExpiryEveryMs === 0 || pointsExpiryBatchSize === 0)
    throw new ConfigError('POINTS_EXPIRY_EVERY_MS and POINTS_EXPIRY_BATCH_SIZE must be more than 0');
  return { pointsExpiryEveryMs, pointsExpiryBatchSize };
}

/**
 * How long after its worker died a job is taken up again, at most: its lock lapses within
 * `workerLockMs` of the last renewal, and a check finds it within one `workerStalledCheckMs` after
 * that. (A check marks the active jobs that a renewal has not claimed since the check before, and
 * moves those whose lock lapsed; with checks no further apart than the lock, a dead worker's job is
 * marked before its lock lapses.)
 */
export function jobRecoveryBoundMs(config: Pick<Config, 'workerLockMs' | 'workerStalledCheckMs'>): number {
  return config.workerLockMs + config.workerStalledCheckMs;
}

/** DATABASE_URL, checked to be a PostgreSQL URL that names its database; its value is not echoed (it may hold a password). */
function databaseUrl(env: Environment): string {
  const raw = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tally';
  const url = connectionUrl('DATABASE_URL', raw, ['postgres:', 'postgresql:'], 'postgres://user@127.0.0.1:5432/tally');
  if (!decodeURIComponent(url.pathname.slice(1)))
    throw new ConfigError(
      `DATABASE_URL names no database: end it with /<database>, as in postgres://user@127.0.0.1:5432/tally`,
    );
  return raw;
}

function redisUrl(env: Environment): string {
  const raw = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  connectionUrl('REDIS_URL', raw, ['redis:', 'rediss:'], 'redis://127.0.0.1:6379');
  return raw;
}

function connectionUrl(name: string, raw: string, protocols: string[], example: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a URL: expected one such as ${example}`);
  }
  if (!protocols.includes(url.protocol))
    throw new ConfigError(
      `${name} must start with ${protocols.map((protocol) => `${protocol}//`).join(' or ')}, not ${url.protocol}//: expected one such as ${example}`,
    );
  if (!url.hostname) throw new ConfigError(`${name} names no host: expected one such as ${example}`);
  return url;
}

const LIFETIME = /^([1-9][0-9]{0,6})(s|m|h|d)$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** A lifetime written as a whole number and a unit, `90s`, `30m`, `12h` or `7d`: its seconds, or undefined. */
export function parseLifetime(text: string): number | undefined {
  const match = LIFETIME.exec(text);
  return match ? Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] : undefined;
}

function lifetime(env: Environment, name: string, fallback: string): number {
  const raw = env[name] || fallback;
  const seconds = parseLifetime(raw);
  if (seconds === undefined) throw new ConfigError(`${name} must be a lifetime like 30m, 12h or 7d, not "${raw}"`);
  return seconds;
}

function integer(env: Environment, name: string, fallback: number): number {
  return optionalInteger(env, name) ?? fallback;
}

function optionalInteger(env: Environment, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a whole number, not "${raw}"`);
  return value;
}

function boolean(env: Environment, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, not "${raw}"`);
}
