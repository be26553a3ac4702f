import type { Migration } from '@mikro-orm/migrations';
import type { KeyPurpose } from '../platform/secrets/derived-key.js';
import { KeyedHash } from '../platform/secrets/keyed-hash.js';

/**
 * What the migrations that rewrite stored values under a key need: the platform secret
 * (docs/operations.md#the-platform-secret), which is never stored beside the data. The processes
 * that migrate (`npm start`, `tally migrate`) pass theirs; a database with nothing to rewrite (a
 * new one, the tests' template) needs none.
 */
export interface MigrationSecrets {
  platformSecret?: string;
}

/** A committed migration that rewrites stored values under a key derived from the platform secret. */
export type KeyedMigration = (
  secrets: MigrationSecrets,
) => new (...args: ConstructorParameters<typeof Migration>) => Migration;

/**
 * The key of `purpose`, derived when a first row needs it: a migration with nothing to rewrite runs
 * without the secret, and one with rows to rewrite and no secret stops and says so.
 */
export function keyWhenNeeded<Purpose extends KeyPurpose>(
  secrets: MigrationSecrets,
  migration: string,
  purpose: Purpose,
): () => KeyedHash<Purpose> {
  let key: KeyedHash<Purpose> | undefined;
  return () => {
    if (!secrets.platformSecret)
      throw new Error(
        `${migration} rewrites stored values under a key derived from PLATFORM_TOKEN_SECRET: migrate with it set (npm start, tally migrate)`,
      );
    return (key ??= new KeyedHash(secrets.platformSecret, purpose));
  };
}

/** Rows rewritten per statement: a member table of millions is rewritten without one huge statement. */
const BATCH_SIZE = 1000;

/**
 * Sets `column` of the rows of `table` that `pending` (a condition) selects to what `value`
 * computes of each, reading `columns` besides the id, a batch at a time, in the migration's
 * transaction. Each batch goes on from the last id of the one before: the rows already read, and
 * those `pending` passes over (an erased member), are never scanned again, so the migration's time
 * grows with the table, not with its square, while it holds its ALTER TABLE's lock.
 */
export async function rewriteColumn<Row extends { id: string }>(
  migration: Pick<Migration, 'execute'>,
  rewrite: { table: string; column: string; columns: string[]; pending: string; value: (row: Row) => string },
): Promise<void> {
  const read = ['id', ...rewrite.columns].map((column) => `"${column}"`).join(', ');
  let last: string | undefined;
  for (;;) {
    const after = last === undefined ? '' : ' and "id" > ?';
    const rows = (await migration.execute(
      `select ${read} from "${rewrite.table}" where (${rewrite.pending})${after} order by "id" limit ${BATCH_SIZE}`,
      last === undefined ? [] : [last],
    )) as Row[];
    if (rows.length === 0) return;
    await migration.execute(
      `update "${rewrite.table}" t set "${rewrite.column}" = v.value
         from (values ${rows.map(() => '(?::uuid, ?)').join(', ')}) as v(id, value) where t.id = v.id`,
      rows.flatMap((row) => [row.id, rewrite.value(row)]),
    );
    last = rows.at(-1)!.id;
  }
}
