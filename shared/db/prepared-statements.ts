import { ReferenceKind, type EntityMetadata, type EntityName } from '@mikro-orm/core';
import type { Knex } from 'knex';
import type { EntityManager } from './orm.js';

/**
 * A hot path's statement, run as a named prepared statement (pg's `name`, passed through knex):
 * PostgreSQL parses and plans it once per connection instead of on every call, and the values
 * travel as bound parameters instead of being formatted into the SQL text, as MikroORM's `execute`
 * does (escaping a claim's JSON character by character). A name belongs to one SQL text for the
 * life of the process. A prepared statement must name its columns, never `*`: one whose table
 * gains a column fails with "cached plan must not change result type" (selectColumns).
 * Runs outside any transaction of `em`.
 */
export async function queryPrepared<T>(em: EntityManager, name: string, sql: string, bindings: readonly unknown[]): Promise<T[]> {
  const result = await em
    .getKnex()
    .raw<{ rows: T[] }>(sql, bindings as readonly Knex.RawBinding[])
    .options({ name });
  return result.rows;
}

interface Column {
  property: string;
  field: string;
  toDatabase: (value: unknown) => unknown;
}

interface StoredColumns {
  table: string;
  columns: Column[];
  insertSql: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an entity schema of any shape
type AnyEntity = EntityName<any>;

const storedByEntity = new WeakMap<EntityMetadata, StoredColumns>();

/** The columns an entity stores (scalars and many-to-one references), in its metadata's order. */
function storedColumns(em: EntityManager, entity: AnyEntity): StoredColumns {
  const meta = em.getMetadata().find(entity)!;
  let stored = storedByEntity.get(meta);
  if (!stored) {
    const platform = em.getPlatform();
    const columns = meta.props
      .filter((prop) => prop.persist !== false && (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE))
      .map((prop) => ({
        property: prop.name,
        field: prop.fieldNames[0]!,
        // The ORM's own conversions (JSON, decimals), so a row reads back as the entity wrote it.
        toDatabase: (value: unknown) => (value === null || value === undefined ? null : prop.customType ? prop.customType.convertToDatabaseValue(value, platform) : value),
      }));
    const insertSql = `insert into "${meta.tableName}" (${columns.map(({ field }) => `"${field}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    stored = { table: meta.tableName, columns, insertSql };
    storedByEntity.set(meta, stored);
  }
  return stored;
}

/** `alias."column", …` for every stored column of the entity: a select list fit for `em.map`. */
export function selectColumns(em: EntityManager, entity: AnyEntity, alias: string): string {
  return storedColumns(em, entity)
    .columns.map(({ field }) => `${alias}."${field}"`)
    .join(', ');
}

/**
 * One row, every stored column given by property (references by id; an absent value is null),
 * inserted by a prepared statement: for a hot path's insert, where building the ORM's insert query
 * costs more than the insert.
 */
export async function insertPrepared(em: EntityManager, entity: AnyEntity, data: Record<string, unknown>): Promise<void> {
  const { table, columns, insertSql } = storedColumns(em, entity);
  await queryPrepared(
    em,
    `insert:${table}`,
    insertSql,
    columns.map(({ property, toDatabase }) => toDatabase(data[property])),
  );
}
