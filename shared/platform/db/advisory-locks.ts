import type { EntityManager } from './orm.js';

/** What a lock is named by: a scope written as it is, and a value within it. */
export interface LockName {
  scope: string;
  value: string;
}

/**
 * Takes a PostgreSQL advisory lock per name, held until the transaction `tx` ends, in one
 * statement and in one order (by the lock's key), so that two transactions taking overlapping
 * names cannot deadlock. The value is lowered first by PostgreSQL's `lower`, as the index and check
 * that compare it without regard to case lower it (alone: lowering it inside a longer string may
 * differ under some collations), so two values that differ only in case take the same lock, which
 * costs at most a wait, never a race.
 */
export async function lockNames(tx: EntityManager, names: LockName[]): Promise<void> {
  if (names.length === 0) return;
  await tx.execute(
    `select pg_advisory_xact_lock(lock_key)
       from (select distinct hashtextextended(name->>'scope' || ':' || lower(name->>'value'), 0) as lock_key
               from jsonb_array_elements(?::jsonb) as names(name)) as keys
      order by lock_key`,
    // One JSON array, one parameter: knex would bind a JavaScript array as one parameter per name.
    [JSON.stringify(names)],
  );
}
