import { ReferenceKind, Utils, type EntityMetadata, type EntityName, type RequiredEntityData } from '@mikro-orm/core';
import type { Knex } from 'knex';
import type { EntityManager } from './orm.js';

/** Bumped when a statement's prepared form went stale: the next name is prepared afresh everywhere. */
const generations = new Map<string, number>();

/**
 * A hot path's statement, run as a named prepared statement (pg's `name`, passed through knex):
 * PostgreSQL parses and plans it once per connection instead of on every call, and the values
 * travel as bound parameters instead of being formatted into the SQL text, as MikroORM's `execute`
 * does (escaping a claim's JSON character by character). A name belongs to one SQL text for the
 * life of the process; a literal `?` in it is written `\\?` (knex's placeholder). When a migration
 * changes what a prepared statement returns (a column added to `*`, a column's type), PostgreSQL
 * refuses it ("cached plan must not change result type") on every connection that prepared it:
 * the statement then runs again under a new name, which each connection prepares anew.
 * Runs outside any transaction of `em`.
 */
export async function queryPrepared<T>(
  em: EntityManager,
  name: string,
  sql: string,
  bindings: readonly unknown[],
): Promise<T[]> {
  const run = async (generation: number) => {
    const result = await em
      .getKnex()
      .raw<{ rows: T[] }>(sql, bindings as readonly Knex.RawBinding[])
      .options({ name: `${name}#${generation}` });
    return result.rows;
  };
  const generation = generations.get(name) ?? 0;
  try {
    return await run(generation);
  } catch (error) {
    if (!isStalePreparedStatement(error)) throw error;
    // Calls that failed together on the same stale name bump it once, not once each.
    if ((generations.get(name) ?? 0) === generation) generations.set(name, generation + 1);
    return run(generations.get(name)!);
  }
}

/** PostgreSQL's refusal of a prepared statement whose result changed, by its routine or, failing that, its message. */
function isStalePreparedStatement(error: unknown): boolean {
  const { code, routine, message } = error as { code?: string; routine?: string; message?: string };
  return (
    code === '0A000' &&
    (routine === 'RevalidateCachedQuery' || /cached plan must not change result type/.test(message ?? ''))
  );
}

interface Column {
  property: string;
  field: string;
  /** The entity's `onCreate`, for a value left out. */
  onCreate: ((data: object, em: EntityManager) => unknown) | undefined;
  toDatabase: (value: unknown) => unknown;
}

interface EntityInsert {
  table: string;
  columns: Column[];
  /** One statement per set of columns given, by their fields joined. */
  statements: Map<string, { name: string; sql: string }>;
}

const insertsByEntity = new WeakMap<EntityMetadata, EntityInsert>();

/** The columns an entity stores (scalars and many-to-one references), read once from its metadata. */
function insertOf(em: EntityManager, meta: EntityMetadata): EntityInsert {
  let insert = insertsByEntity.get(meta);
  if (!insert) {
    const platform = em.getPlatform();
    const columns = meta.props
      .filter(
        (prop) =>
          prop.persist !== false && (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE),
      )
      .map((prop) => ({
        property: prop.name,
        field: prop.fieldNames[0]!,
        onCreate: prop.onCreate as Column['onCreate'],
        toDatabase: (value: unknown) => {
          if (value === null) return null;
          if (prop.kind === ReferenceKind.MANY_TO_ONE) return Utils.extractPK(value, prop.targetMeta);
          // The ORM's own conversions (JSON, decimals), so the row reads back as the ORM writes it.
          return prop.customType ? prop.customType.convertToDatabaseValue(value, platform) : value;
        },
      }));
    insert = { table: meta.tableName, columns, statements: new Map() };
    insertsByEntity.set(meta, insert);
  }
  return insert;
}

/**
 * One row inserted by a prepared statement, for a hot path where building the ORM's insert costs
 * more than the insert (em.insert). `data` is typed as for em.insert; a property left out (or
 * undefined) takes the entity's `onCreate` value, else it is left out of the INSERT so the column's
 * database default applies, as with em.insert.
 */
export async function insertPrepared<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  data: RequiredEntityData<T>,
): Promise<void> {
  const { table, columns, statements } = insertOf(em, em.getMetadata().find(entity)!);
  const given: Column[] = [];
  const values: unknown[] = [];
  for (const column of columns) {
    const value = (data as Record<string, unknown>)[column.property] ?? column.onCreate?.(data, em);
    if (value === undefined) continue;
    given.push(column);
    values.push(column.toDatabase(value));
  }
  const fields = given.map(({ field }) => `"${field}"`).join(', ');
  let statement = statements.get(fields);
  if (!statement) {
    statement = {
      name: `insert:${table}:${statements.size}`,
      sql: `insert into "${table}" (${fields}) values (${given.map(() => '?').join(', ')})`,
    };
    statements.set(fields, statement);
  }
  await queryPrepared(em, statement.name, statement.sql, values);
}
