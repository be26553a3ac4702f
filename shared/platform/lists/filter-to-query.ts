import { raw, UnderscoreNamingStrategy } from '@mikro-orm/core';
import type { FilterCondition, FilterScalar } from './parse-filter.js';

export type FilterQueryObject = Record<string, unknown>;

/**
 * Checked conditions → a MikroORM filter object. MikroORM binds every value as a parameter, so
 * no filter text ever becomes SQL. Dotted paths become nested objects (`{type: {name: …}}`),
 * which MikroORM turns into joins for relations and `->>` for JSON members.
 */
export function filterToQuery(conditions: FilterCondition[]): FilterQueryObject {
  if (conditions.length === 0) return {};
  return {
    $and: conditions.map((condition) =>
      isNestedKeyTest(condition) ? nestedHasKey(condition) : nest(condition.path, operatorQuery(condition)),
    ),
  };
}

/** `has` on an object inside a JSON column (`profile.attributes`), which MikroORM cannot express. */
function isNestedKeyTest({ operator, fieldType, path }: FilterCondition): boolean {
  return operator === 'has' && fieldType === 'object' && path.includes('.');
}

/** The ORM's own rule from a property to its column (the default for PostgreSQL, which shared/platform/db/orm.ts keeps). */
const columnNames = new UnderscoreNamingStrategy();

/**
 * MikroORM reads a nested JSON member as text (`profile->>'attributes'`), on which PostgreSQL has
 * no key test, so `$hasKey` there failed as a 500 (issue 17). This asks the member as jsonb
 * (`->`, one bound member at a time) instead; the members and the key are parameters, the column
 * is the entity's own.
 */
function nestedHasKey({ path, value }: FilterCondition): FilterQueryObject {
  const [property, ...members] = path.split('.');
  const columnName = columnNames.propertyToColumnName(property!);
  const member = members.map(() => ' -> ?').join('');
  return { [raw((alias: string) => `jsonb_exists(${alias}.${columnName}${member}, ?)`, [...members, value])]: true };
}

function operatorQuery({ operator, value, fieldType }: FilterCondition): unknown {
  switch (operator) {
    case 'eq':
      return value === null ? null : { $eq: value };
    case 'neq':
      return { $ne: value };
    case 'gt':
      return { $gt: value };
    case 'lt':
      return { $lt: value };
    case 'in':
      return { $in: value };
    case 'like':
      return { $ilike: escapeLike(value as string) };
    case 'has':
      return fieldType === 'object' ? { $hasKey: value } : { $contains: [value as FilterScalar] };
  }
}

/** `%` stays the wildcard (docs/api-conventions.md#filters); `_` and `\` match themselves. */
export function escapeLike(pattern: string): string {
  return pattern.replace(/[\\_]/g, (char) => `\\${char}`);
}

function nest(path: string, query: unknown): FilterQueryObject {
  return path.split('.').reduceRight<unknown>((inner, key) => ({ [key]: inner }), query) as FilterQueryObject;
}
