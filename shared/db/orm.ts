import { MikroORM, PostgreSqlDriver, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../logging/logger.js';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

export type Orm = MikroORM;
export type { EntityManager };

export function ormOptions(databaseUrl: string, logger?: Logger): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    // Migrations are listed explicitly so the same list runs from TypeScript (tests) and from dist/.
    migrations: { migrationsList, path: 'shared/db/migrations', pathTs: 'shared/db/migrations', transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: 10 },
    // Routes and jobs fork their own EntityManager; the global one must never collect state.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false,
    ...(logger ? { logger: (message: string) => logger.debug({ orm: message }) } : {}),
  };
}

export function createOrm(databaseUrl: string, logger?: Logger): Promise<Orm> {
  return MikroORM.init(ormOptions(databaseUrl, logger));
}

export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((migration) => migration.name);
}
