import pg from 'pg';
import { Redis } from 'ioredis';
import { withTimeout } from '../async/with-timeout.js';
import { ensureDatabase, redactUrl } from './ensure-database.js';

const TIMEOUT_MS = 4000;

/** Thrown when PostgreSQL or Redis does not answer at start; its message is the one line to print. */
export class DependencyUnavailableError extends Error {}

/**
 * docs/operations.md#running: start-up fails fast (within 5 s) with one line naming the service,
 * its address, the variable that gives it and what went wrong: a server that is not answering
 * (with the script in deploy/ that starts it locally) is told apart from one that answered and
 * refused (a role or password it does not know, a database it will not create). Both are asked at
 * once so the wait is paid once.
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
      refusal(postgres.reason)
        ? `PostgreSQL at ${redactUrl(databaseUrl)} refused DATABASE_URL: ${refusal(postgres.reason)}`
        : `PostgreSQL is not answering at ${redactUrl(databaseUrl)} (${reason(postgres.reason)}); check DATABASE_URL, or start it locally with deploy/local/start-postgres.sh`,
    );
  }
  if (redis.status === 'rejected') {
    throw new DependencyUnavailableError(
      refusal(redis.reason)
        ? `Redis at ${redactUrl(redisUrl)} refused REDIS_URL: ${refusal(redis.reason)}`
        : `Redis is not answering at ${redactUrl(redisUrl)} (${reason(redis.reason)}); check REDIS_URL, or start it locally with deploy/local/start-redis.sh`,
    );
  }
}

/** ensureDatabase, its failure (the role may not create databases, say) told in one line. */
export async function prepareDatabase(databaseUrl: string): Promise<void> {
  try {
    await ensureDatabase(databaseUrl);
  } catch (error) {
    const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    throw new DependencyUnavailableError(
      `PostgreSQL at ${redactUrl(databaseUrl)} could not provide the database "${name}" of DATABASE_URL: ${refusal(error) ?? reason(error)}`,
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

/**
 * What the server said when it answered with an error rather than not answering: PostgreSQL's
 * message and SQLSTATE (`role "x" does not exist (28000)`), or Redis's error reply (`WRONGPASS …`).
 */
function refusal(error: unknown): string | undefined {
  const { code, message, severity, name } = error as {
    code?: string;
    message?: string;
    severity?: string;
    name?: string;
  };
  if (severity && code) return `${message} (${code})`;
  if (name === 'ReplyError' && message) return message;
  return undefined;
}

function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code ?? message ?? String(error);
}
