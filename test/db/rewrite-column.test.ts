import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../shared/database.js';
import { rewriteColumn } from '../../shared/migrations/migration-secrets.js';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import type { Orm } from '../../shared/platform/db/orm.js';
import { databaseUrl } from '../support/test-database.js';

const url = databaseUrl(`tally_test_rewrite_column_${randomBytes(4).toString('hex')}`);
let orm: Orm;

/** 2,500 rows, a third of them passed over (as an erased member is), in id order from the lowest. */
const ROWS = Array.from({ length: 2500 }, () => randomUUID())
  .sort()
  .map((id, index) => ({ id, tenantId: randomUUID(), passedOver: index % 3 === 0 }));
const PENDING = ROWS.filter((row) => !row.passedOver);
const BATCH_SIZE = 1000;

beforeAll(async () => {
  await ensureDatabase(url);
  orm = await createDatabase(url);
  const connection = orm.em.getConnection();
  await connection.execute(
    `create table "probe" ("id" uuid primary key, "tenant_id" uuid not null, "passed_over" boolean not null, "hash" text null)`,
  );
  await connection.execute(
    `insert into "probe" ("id", "tenant_id", "passed_over")
       select * from json_to_recordset(?::json) as r("id" uuid, "tenant_id" uuid, "passed_over" boolean)`,
    [JSON.stringify(ROWS.map((row) => ({ id: row.id, tenant_id: row.tenantId, passed_over: row.passedOver })))],
  );
});
afterAll(async () => {
  await orm.close();
  await dropDatabase(url);
});

interface Batch {
  params: unknown[];
  ids: string[];
}

/** The migration as rewriteColumn sees it, recording each batch it reads; a run that reads on past every row stops. */
function recordingMigration(batches: Batch[]) {
  const connection = orm.em.getConnection();
  return {
    async execute(sql: string, params: unknown[] = []) {
      const result = await connection.execute(sql, params);
      if (sql.startsWith('select')) {
        batches.push({ params, ids: (result as { id: string }[]).map((row) => row.id) });
        if (batches.length > Math.ceil(ROWS.length / BATCH_SIZE) + 1) throw new Error('read past every row');
      }
      return result;
    },
  };
}

// docs/operations.md#the-platform-secret: the migrations that rewrite stored values under a key
// (members' fingerprints, referrals' hashes) run over every row while they hold their table's lock.
describe('a column rewritten under a key, a batch at a time', () => {
  it('reads each pending row once, each batch going on from the last id of the one before, never again from the first', async () => {
    const batches: Batch[] = [];
    // Rewritten rows still meet this condition: only the last id keeps them from being read again.
    await rewriteColumn<{ id: string; tenant_id: string }>(recordingMigration(batches), {
      table: 'probe',
      column: 'hash',
      columns: ['tenant_id'],
      pending: `not "passed_over"`,
      value: (row) => `${row.tenant_id}:${row.id}`,
    });

    expect(batches.map((batch) => batch.ids.length)).toEqual([1000, 666, 0]);
    expect(batches.flatMap((batch) => batch.ids)).toEqual(PENDING.map((row) => row.id));
    expect(batches.map((batch) => batch.params)).toEqual([[], [batches[0]!.ids.at(-1)], [batches[1]!.ids.at(-1)]]);

    const stored = await orm.em
      .getConnection()
      .execute<{ id: string; hash: string | null }[]>(`select "id", "hash" from "probe" order by "id"`);
    expect(stored).toEqual(
      ROWS.map((row) => ({ id: row.id, hash: row.passedOver ? null : `${row.tenantId}:${row.id}` })),
    );
  });
});
