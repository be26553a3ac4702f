import pg from 'pg';
import { Redis } from 'ioredis';
import { withTimeout } from '../async/with-timeout.js';
import { redactUrl } from './ensure-database.js';

const TIMEOUT_MS = 4000;

/** Thrown when PostgreSQL or Redis does not answer at start; its message is the one line to print. */
export class DependencyUnavailableError extends Error {}

/**
 * docs/operations.md#running: start-up fails fast (within 5 s) with one line naming the service,
 * its address, and the script in deploy/ that starts it locally. Both are asked at once so the wait
 * is paid once.
 */
export async function checkDependencies(databaseUrl: string, redisUrl: string): Promise<void> {
  // The whole exchange is bounded, not only the connection: a server that accepts and never
  // answers must fail start-up as surely as one that refuses.
  const [postgres, redis] = await Promise.allSettled([
    withTimeout(pingPostgres(databaseUrl), TIMEOUT_MS),
    withTimeout(pingRedis(redisUrl), TIMEOUT_MS),
  ]);
  if (postgres.status === 'rejected') {
    throw new DependencyUnavailableError(
      `PostgreSQL is not answering at ${redactUrl(databaseUrl)} (${reason(postgres.reason)}); start it locally with deploy/local/start-postgres.sh`,
    );
  }
  if (redis.status === 'rejected') {
    throw new DependencyUnavailableError(
      `Redis is not answering at ${redactUrl(redisUrl)} (${reason(redis.reason)}); start it locally with deploy/local/start-redis.sh`,
    );
  }
}

async function pingPostgres(databaseUrl: string): Promise<void> {
  // The server is asked through its always-present `postgres` database: ours may not exist yet.
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
}

async function pingRedis(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code ?? message ?? String(error);
}
