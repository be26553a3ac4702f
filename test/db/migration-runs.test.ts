import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../shared/database.js';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import { migrate, pendingMigrations, type Orm } from '../../shared/platform/db/orm.js';
import { migrationsList } from '../../shared/migrations/index.js';
import { databaseUrl } from '../support/test-database.js';

// Two pods' init containers starting together on a database no one has migrated yet.
const fresh = databaseUrl(`tally_test_migration_runs_${randomBytes(4).toString('hex')}`);
const orms: Orm[] = [];

beforeAll(async () => {
  await ensureDatabase(fresh);
  orms.push(await createDatabase(fresh), await createDatabase(fresh));
});
afterAll(async () => {
  await Promise.all(orms.map((orm) => orm.close()));
  await dropDatabase(fresh);
});

// docs/operations.md#migrations: "several started at once apply each migration once; the later
// ones wait, then find nothing pending".
describe('migration runs started at once', () => {
  it('apply every migration exactly once between them, and neither fails', async () => {
    const runs = await Promise.all(orms.map((orm) => migrate(orm)));

    expect(runs.flat().sort()).toEqual(
      migrationsList({})
        .map(({ name }) => name)
        .sort(),
    );
    expect(runs.some((applied) => applied.length === 0)).toBe(true);
    expect(await pendingMigrations(orms[0]!)).toEqual([]);
  });
});
