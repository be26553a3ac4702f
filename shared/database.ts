import { entities } from './entities.js';
import type { MigrationSecrets } from './migrations/migration-secrets.js';
import { migrationsList } from './migrations/index.js';
import { createOrm, type DatabaseModel, type Orm, type OrmChoices } from './platform/db/orm.js';
import type { Logger } from './platform/logging/logger.js';

/** Where generated migrations are written, relative to the repository. */
export const MIGRATIONS_PATH = 'shared/migrations';

/**
 * Tally's database: every feature's entities and the committed migrations (the composition root).
 * The processes that migrate pass the platform secret, for the migrations that rewrite stored
 * values under a key derived from it (shared/migrations/migration-secrets.ts).
 */
export function databaseModel(secrets: MigrationSecrets = {}): DatabaseModel {
  return { entities, migrationsList: migrationsList(secrets), migrationsPath: MIGRATIONS_PATH };
}

export function createDatabase(
  databaseUrl: string,
  logger?: Logger,
  choices: OrmChoices & MigrationSecrets = {},
): Promise<Orm> {
  return createOrm(databaseModel(choices), databaseUrl, logger, choices);
}
