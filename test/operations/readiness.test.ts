import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../shared/database.js';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import { migrate } from '../../shared/platform/db/orm.js';
import { migrationsList } from '../../shared/migrations/index.js';
import { createHarness, jsonOf, type Harness } from '../support/harness.js';
import { databaseUrl } from '../support/test-database.js';

// A database that exists and was never migrated: what a rollout meets when the migrate Job has not run.
const fresh = databaseUrl(`tally_test_unmigrated_${randomBytes(4).toString('hex')}`);
let harness: Harness;

beforeAll(async () => {
  await ensureDatabase(fresh);
  harness = await createHarness({ databaseUrl: fresh });
});
afterAll(async () => {
  await harness.close();
  await dropDatabase(fresh);
});

// docs/operations.md#operator-endpoints: "/ready answers 503 until the database is at the latest migration".
describe('/ready and the database schema', () => {
  it('answers 503 naming the pending migrations on an unmigrated database, then 200 once it is migrated', async () => {
    const before = await harness.request(null, 'GET', '/ready');
    expect(before.status).toBe(503);
    const answer = await jsonOf(before);
    const latest = migrationsList({}).at(-1)!.name;
    expect(answer.message).toContain('not migrated');
    expect(answer.message).toContain(latest);
    expect(answer.data.pendingMigrations).toEqual(migrationsList({}).map(({ name }) => name));

    const orm = await createDatabase(fresh);
    try {
      await migrate(orm);
    } finally {
      await orm.close();
    }
    const after = await harness.request(null, 'GET', '/ready');
    expect(after.status).toBe(200);
    expect(await jsonOf(after)).toEqual({ status: 'success', data: { postgres: 'ok', redis: 'ok' } });
  });
});
