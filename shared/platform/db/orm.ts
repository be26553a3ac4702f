import type { MigrationObject } from '@mikro-orm/core';
import { MikroORM, PostgreSqlDriver, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import type { Logger } from '../logging/logger.js';

export type Orm = MikroORM;
export type { EntityManager };

/**
 * What the ORM maps: the features' entities and the committed migrations. The composition root
 * (shared/database.ts) names them, so this module knows no feature.
 */
export interface DatabaseModel {
  entities: NonNullable<Options['entities']>;
  migrationsList: MigrationObject[];
  /** Where generated migrations are written, relative to the repository. */
  migrationsPath: string;
}

/**
 * How long a query waits for a pooled connection: when none comes (new connections unanswered by
 * a host gone silent, a pool in use to the last connection), the request fails within this time,
 * as a 503 (database-errors.ts), instead of knex's default of a minute, longer than clients wait
 * and than a BullMQ job's lock lasts. A query already sent is not bounded here.
 */
const CONNECTION_WAIT_MS = 5_000;

export interface OrmChoices {
  /**
   * Create the database when it is missing (MikroORM's default, and what the service and `tally
   * migrate` want); the CLI's other commands say "run tally migrate" instead.
   */
  createMissing?: boolean;
}

export function ormOptions(
  model: DatabaseModel,
  databaseUrl: string,
  logger?: Logger,
  choices: OrmChoices = {},
): Options {
  return {
    ensureDatabase: choices.createMissing ?? true,
    driver: PostgreSqlDriver,
    clientUrl: databaseUrl,
    entities: model.entities,
    extensions: [Migrator],
    // Migrations are listed explicitly so the same list runs from TypeScript (tests) and from dist/.
    migrations: {
      migrationsList: model.migrationsList,
      path: model.migrationsPath,
      pathTs: model.migrationsPath,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    pool: { min: 0, max: 10 },
    // Routes and jobs fork their own EntityManager; the global one must never collect state.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false,
    driverOptions: {
      acquireConnectionTimeout: CONNECTION_WAIT_MS,
      // A connection attempt that is never answered gives up too, or it would hold its place in
      // the pool for good; within half the wait, so that the pool tries again within the wait.
      connection: { connectionTimeoutMillis: CONNECTION_WAIT_MS / 2 },
      ...(logger ? { log: knexLog(logger) } : {}),
    },
    ...(logger ? { logger: (message: string) => logger.debug({ orm: message }) } : {}),
  };
}

/** knex's own messages (a pooled connection lost, say) into the JSON log instead of the console. */
function knexLog(logger: Logger) {
  return {
    warn: (message: unknown) => logger.warn({ knex: message }, 'database client warning'),
    error: (message: unknown) => logger.error({ knex: message }, 'database client error'),
    deprecate: (method: string, alternative: string) =>
      logger.warn({ knex: { method, alternative } }, 'database client deprecation'),
    debug: (message: unknown) => logger.debug({ knex: message }, 'database client debug'),
  };
}

export function createOrm(
  model: DatabaseModel,
  databaseUrl: string,
  logger?: Logger,
  choices?: OrmChoices,
): Promise<Orm> {
  return MikroORM.init(ormOptions(model, databaseUrl, logger, choices));
}

/** Any fixed number, the same in every process: the advisory lock that migration runs take turns on. */
const MIGRATION_LOCK_KEY = 7_400_519;

/**
 * Applies the pending migrations, one run at a time across processes (docs/operations.md#migrations):
 * MikroORM's migrator takes no lock, so two pods starting together (Kubernetes init containers,
 * `npm start` beside `tally migrate`) could both read a migration as pending and run its data
 * changes twice. The second run waits on a session advisory lock, held on a connection of its own
 * for the whole run, then finds nothing pending.
 */
export async function migrate(orm: Orm): Promise<string[]> {
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  // An error on this idle session (PostgreSQL restarting) fails the query below; unheard, pg would throw it.
  lock.on('error', () => {});
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await orm.getMigrator().up();
    return applied.map((migration) => migration.name);
  } finally {
    // Ending the session releases its lock, whatever happened to the run.
    await lock.end();
  }
}

/**
 * The committed migrations the database has not applied, read without changing anything (the
 * migrator's own listing creates its table first): an unmigrated or missing table is all of them.
 */
export async function pendingMigrations(orm: Orm): Promise<string[]> {
  const { migrationsList = [], tableName = 'mikro_orm_migrations' } = orm.config.get('migrations');
  const connection = orm.em.getConnection();
  const [table] = await connection.execute<{ found: string | null }[]>('select to_regclass(?) as found', [tableName]);
  const applied = new Set(
    table?.found
      ? (await connection.execute<{ name: string }[]>(`select name from "${tableName.replace(/"/g, '""')}"`)).map(
          ({ name }) => name.replace(/\.[jt]s$/, ''),
        )
      : [],
  );
  return migrationsList.map(({ name }) => name).filter((name) => !applied.has(name));
}
