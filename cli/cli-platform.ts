import type { AuditDependencies } from '../shared/audit/audit-log.js';
import type { QueueName, Queues } from '../shared/job-catalog.js';
import { systemClock } from '../shared/platform/async/clock.js';
import type { Config } from '../shared/platform/config/config.js';
import { redactUrl } from '../shared/platform/db/ensure-database.js';
import { pendingMigrations, type Orm } from '../shared/platform/db/orm.js';
import { createLogger, type Logger } from '../shared/platform/logging/logger.js';
import { PayloadSchemaCompiler } from '../shared/platform/validation/payload-schema.js';
import { createDatabase } from '../shared/database.js';

/** A mistake of the operator's: exits 1 with its one line (and the usage, for a wrong command). */
export class UsageError extends Error {}
/** Something the operator must do first: exits 1 with its one line and no usage. */
export class CommandError extends Error {}

/**
 * What a command other than `migrate` works with: the database alone, opened without migrating
 * or creating anything, and Redis only for a command that is audited (docs/operations.md#cli).
 * The service's whole context (every queue, cache and connection) is not built: a command is
 * done in the time the ORM takes to load.
 */
export interface CliPlatform {
  config: Config;
  logger: Logger;
  orm: Orm;
  payloadSchemas: PayloadSchemaCompiler;
  /** The audit queue, opened on first use; its connection is closed with the platform. */
  audit(): Promise<AuditDependencies>;
}

/**
 * The CLI's diagnostics on stderr (fd 2; stdout carries only its JSON answer), at warn unless
 * LOG_LEVEL says otherwise: an operator's command is quiet when all is well.
 */
export function cliLogger(): Logger {
  return createLogger(process.env.LOG_LEVEL ?? 'warn', 2);
}

export async function withCliPlatform<T>(config: Config, work: (platform: CliPlatform) => Promise<T>): Promise<T> {
  const logger = cliLogger();
  const orm = await createDatabase(config.databaseUrl, logger, { createMissing: false });
  let closeAudit: (() => Promise<void>) | undefined;
  try {
    await requireMigrated(orm, config.databaseUrl);
    return await work({
      config,
      logger,
      orm,
      payloadSchemas: new PayloadSchemaCompiler(),
      async audit() {
        const opened = await openAuditQueue(config, logger);
        closeAudit = opened.close;
        return opened.deps;
      },
    });
  } finally {
    await closeAudit?.();
    await orm.close();
  }
}

/** One line naming what to do: `tally migrate` for a database missing or behind, the cause otherwise. */
async function requireMigrated(orm: Orm, databaseUrl: string): Promise<void> {
  const where = `${redactUrl(databaseUrl)}/${decodeURIComponent(new URL(databaseUrl).pathname.slice(1))}`;
  let pending: string[];
  try {
    pending = await pendingMigrations(orm);
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    // 3D000: the database does not exist.
    if (code === '3D000') throw new CommandError(`the database ${where} does not exist: run tally migrate`);
    throw new CommandError(`PostgreSQL at ${where} cannot be used (${code ?? message}); is it running?`);
  }
  if (pending.length) {
    throw new CommandError(
      `the database ${where} is not migrated (${pending.length} pending migration(s), the latest ${pending.at(-1)}): run tally migrate`,
    );
  }
}

/** How long a command's exit waits for Redis to take its QUIT: the audit job is written by then. */
const CLOSE_REDIS_MS = 2000;

/** One queue of the catalog, for a command that queues work (`points adjust`); closed by `close`. */
export async function openQueue<Q extends QueueName>(
  config: Config,
  logger: Logger,
  name: Q,
): Promise<{ queues: Pick<Queues, Q>; close(): Promise<void> }> {
  const [{ queueCatalog }, { createQueues }, { closeRedis, createRedis }, { RedisConnectionLog }] = await Promise.all([
    import('../shared/job-catalog.js'),
    import('../shared/platform/queues/queue-factory.js'),
    import('../shared/platform/redis/redis.js'),
    import('../shared/platform/redis/connection-log.js'),
  ]);
  const connection = createRedis(config.redisUrl, 'tally-cli', { connections: new RedisConnectionLog(logger) });
  const queues = createQueues(
    { [name]: queueCatalog[name] } as Pick<typeof queueCatalog, Q>,
    connection,
    config.redisPrefix,
    logger,
  );
  return {
    queues: queues as unknown as Pick<Queues, Q>,
    async close() {
      await Promise.all(Object.values<{ close(): Promise<void> }>(queues).map((queue) => queue.close()));
      await closeRedis(connection, CLOSE_REDIS_MS);
    },
  };
}

/** The audit queue alone, loaded only by the commands that change something. */
async function openAuditQueue(
  config: Config,
  logger: Logger,
): Promise<{ deps: AuditDependencies; close(): Promise<void> }> {
  const [{ queueCatalog }, { createQueues }, { closeRedis, createRedis }, { RedisConnectionLog }] = await Promise.all([
    import('../shared/job-catalog.js'),
    import('../shared/platform/queues/queue-factory.js'),
    import('../shared/platform/redis/redis.js'),
    import('../shared/platform/redis/connection-log.js'),
  ]);
  const connection = createRedis(config.redisUrl, 'tally-cli', { connections: new RedisConnectionLog(logger) });
  const queues = createQueues({ audit: queueCatalog.audit }, connection, config.redisPrefix, logger);
  return {
    deps: { queues, logger, clock: systemClock },
    async close() {
      await queues.audit.close();
      await closeRedis(connection, CLOSE_REDIS_MS);
    },
  };
}
