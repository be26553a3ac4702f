import type { EntityManager } from './orm.js';

/**
 * Takes a PostgreSQL advisory lock per name, held until the transaction `tx` ends, in one
 * statement and in one order (by the lock's key), so that two transactions taking overlapping
 * names cannot deadlock. Names are lowered first (PostgreSQL's `lower`): two names that differ only
 * in case take the same lock, which costs at most a wait, never a race between two values an
 * index compares without regard to case.
 */
export async function lockNames(tx: EntityManager, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await tx.execute(
    `select pg_advisory_xact_lock(lock_key)
       from (select distinct hashtextextended(lower(lock_name), 0) as lock_key
               from jsonb_array_elements_text(?::jsonb) as names(lock_name)) as keys
      order by lock_key`,
    // One JSON array, one parameter: knex would bind a JavaScript array as one parameter per name.
    [JSON.stringify(names)],
  );
}
