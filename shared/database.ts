import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';
import { createOrm, type DatabaseModel, type Orm, type OrmChoices } from './platform/db/orm.js';
import type { Logger } from './platform/logging/logger.js';

/** Tally's database: every feature's entities and the committed migrations (the composition root). */
export const databaseModel: DatabaseModel = { entities, migrationsList, migrationsPath: 'shared/migrations' };

export function createDatabase(databaseUrl: string, logger?: Logger, choices?: OrmChoices): Promise<Orm> {
  return createOrm(databaseModel, databaseUrl, logger, choices);
}
