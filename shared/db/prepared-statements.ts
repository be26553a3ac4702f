import { ReferenceKind, wrap, type EntityMetadata, type EntityName, type RequiredEntityData } from '@mikro-orm/core';
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
export async function queryPrepared<T>(em: EntityManager, name: string, sql: string, bindings: readonly unknown[]): Promise<T[]> {
  const run = async () => {
    const result = await em
      .getKnex()
      .raw<{ rows: T[] }>(sql, bindings as readonly Knex.RawBinding[])
      .options({ name: `${name}#${generations.get(name) ?? 0}` });
    return result.rows;
  };
  try {
    return await run();
  } catch (error) {
    if (!isStalePreparedStatement(error)) throw error;
    generations.set(name, (generations.get(name) ?? 0) + 1);
    return run();
  }
}

function isStalePreparedStatement(error: unknown): boolean {
  return (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((error as Error).message);
}

interface Column {
  property: string;
  field: string;
  toDatabase: (value: unknown) => unknown;
}

const insertsByEntity = new WeakMap<EntityMetadata, { name: string; sql: string; columns: Column[] }>();

/** An INSERT of every column an entity stores (scalars and many-to-one references), built once from its metadata. */
function insertOf(em: EntityManager, meta: EntityMetadata) {
  let insert = insertsByEntity.get(meta);
  if (!insert) {
    const platform = em.getPlatform();
    const columns = meta.props
      .filter((prop) => prop.persist !== false && (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE))
      .map((prop) => ({
        property: prop.name,
        field: prop.fieldNames[0]!,
        toDatabase: (value: unknown) => {
          if (value === null || value === undefined) return null;
          if (prop.kind === ReferenceKind.MANY_TO_ONE && typeof value === 'object') return wrap(value as object, true).getPrimaryKey();
          // The ORM's own conversions (JSON, decimals), so the row reads back as the ORM writes it.
          return prop.customType ? prop.customType.convertToDatabaseValue(value, platform) : value;
        },
      }));
    const sql = `insert into "${meta.tableName}" (${columns.map(({ field }) => `"${field}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    insert = { name: `insert:${meta.tableName}`, sql, columns };
    insertsByEntity.set(meta, insert);
  }
  return insert;
}

/**
 * One row inserted by a prepared statement, for a hot path where building the ORM's insert costs
 * more than the insert (em.insert). `data` is typed as for em.insert; the statement lists every
 * column, so one left out is NULL (a NOT NULL column's default is not applied: it fails loudly).
 */
export async function insertPrepared<T extends object>(em: EntityManager, entity: EntityName<T>, data: RequiredEntityData<T>): Promise<void> {
  const { name, sql, columns } = insertOf(em, em.getMetadata().find(entity)!);
  const values = data as Record<string, unknown>;
  await queryPrepared(
    em,
    name,
    sql,
    columns.map(({ property, toDatabase }) => toDatabase(values[property])),
  );
}
