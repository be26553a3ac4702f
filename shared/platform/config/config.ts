import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';

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
   * How long a worker's lock on a job lasts without renewal. A worker that dies (SIGKILL, lost
   * machine) leaves its jobs locked this long; then another worker takes them up again.
   */
  workerLockMs: number;
  /** How long POST /receipts waits for a preparsed claim's automated decision (docs/receipts.md#claims). */
  receiptDecisionWaitMs: number;
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
   * The time one claim's image may take to fetch, over all its attempts: a host that trickles
   * bytes fails the claim within this, rather than holding an OCR slot for 10 s per attempt.
   */
  imageFetchBudgetMs: number;
}

export type Environment = Record<string, string | undefined>;

const SERVICES = ['all', 'receipts', 'rewards'] as const;
/** Where a generated platform secret is kept on a developer machine (git-ignored). */
export const LOCAL_SECRET_FILE = '.tally/platform-token-secret';

export class ConfigError extends Error {}

export function loadConfig(env: Environment = process.env): Config {
  const service = env.SERVICE ?? 'all';
  if (!(SERVICES as readonly string[]).includes(service)) {
    throw new ConfigError(`SERVICE must be one of ${SERVICES.join(', ')}, not "${service}"`);
  }
  return {
    port: integer(env, 'PORT', 3000),
    workerPort: integer(env, 'WORKER_PORT', 3001),
    metricsPort: optionalInteger(env, 'METRICS_PORT'),
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tally',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    platformTokenSecret: env.PLATFORM_TOKEN_SECRET ?? localPlatformSecret(),
    logLevel: env.LOG_LEVEL ?? 'info',
    fetchAllowPrivateAddresses: boolean(env, 'FETCH_ALLOW_PRIVATE_ADDRESSES', false),
    service: service as Config['service'],
    redisPrefix: env.REDIS_PREFIX ?? 'tally',
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 25_000),
    cacheTtlMs: integer(env, 'CACHE_TTL_MS', 5_000),
    memberCacheTtlMs: integer(env, 'MEMBER_CACHE_TTL_MS', 30_000),
    workerLockMs: integer(env, 'WORKER_LOCK_MS', 30_000),
    webhookRetryBaseMs: optionalInteger(env, 'WEBHOOK_RETRY_BASE_MS'),
    receiptDecisionWaitMs: integer(env, 'RECEIPT_DECISION_WAIT_MS', 2000),
    idempotencyLeaseMs: integer(env, 'IDEMPOTENCY_LEASE_MS', 30_000),
    imageFetchBudgetMs: integer(env, 'IMAGE_FETCH_BUDGET_MS', 20_000),
  };
}

/**
 * docs/operations.md#configuration: when PLATFORM_TOKEN_SECRET is unset, a secret is generated into
 * a local, git-ignored file on first run, so admin tokens minted by the CLI keep working across
 * restarts.
 */
function localPlatformSecret(): string {
  const file = resolve(LOCAL_SECRET_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
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
