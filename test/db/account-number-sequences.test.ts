import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../shared/database.js';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import type { Orm } from '../../shared/platform/db/orm.js';
import { accountNumberSequence } from '../../shared/tenants/account-numbers.js';
import { databaseUrl } from '../support/test-database.js';

// The migration that moved account numbers from a counter on the tenant's row to a sequence per
// tenant (docs/users.md#registration: "Numbers increase").
const SEQUENCES_MIGRATION = 'Migration20261202000000';
const BEFORE = 'Migration20261128150000';
const url = databaseUrl(`tally_test_account_numbers_${randomBytes(4).toString('hex')}`);
let orm: Orm;

beforeAll(async () => {
  await ensureDatabase(url);
  orm = await createDatabase(url);
  await orm.getMigrator().up({ to: BEFORE });
});
afterAll(async () => {
  await orm.close();
  await dropDatabase(url);
});

describe('account numbers move to a sequence per tenant', () => {
  it("go on from each tenant's counter, and back to it when the migration is reverted", async () => {
    const connection = orm.em.getConnection();
    const tenantId = randomUUID();
    await connection.execute(
      `insert into tenant (id, name, slug, api_key_prefix, api_key_hash, configuration, next_account_number, created_at, updated_at)
         values (?, 'Counted', 'counted', 'tk_counted', 'not a key', '{}', 42, now(), now())`,
      [tenantId],
    );
    await orm.getMigrator().up({ to: SEQUENCES_MIGRATION });
    const draw = async () =>
      Number(
        (
          await connection.execute<{ n: string }[]>('select nextval(?::regclass) as n', [
            accountNumberSequence(tenantId),
          ])
        )[0]!.n,
      );
    expect([await draw(), await draw()]).toEqual([42, 43]);

    await orm.getMigrator().down({ to: BEFORE });
    const [counter] = await connection.execute<{ next_account_number: number }[]>(
      'select next_account_number from tenant where id = ?',
      [tenantId],
    );
    expect(counter?.next_account_number).toBe(44);
    const [sequences] = await connection.execute<{ left: number }[]>(
      "select count(*)::int as left from pg_class where relkind = 'S' and relname like 'account_number_%'",
    );
    expect(sequences?.left).toBe(0);
  });
});
