/**
 * Development tool: writes the migration that brings the database at DATABASE_URL (migrated to
 * the latest committed migration) to the entities' current shape. Add the new file to index.ts.
 * Run: npx tsx shared/migrations/create-migration.ts
 */
import { createDatabase, MIGRATIONS_PATH } from '../database.js';
import { migrate } from '../platform/db/orm.js';
import { ensureDatabase } from '../platform/db/ensure-database.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tally_migrations';
await ensureDatabase(databaseUrl);
const orm = await createDatabase(databaseUrl);
try {
  await migrate(orm);
  const created = await orm.getMigrator().createMigration(MIGRATIONS_PATH, false, false);
  console.log(created.fileName ? `created ${created.fileName}` : 'entities and database agree: nothing to create');
} finally {
  await orm.close();
}
