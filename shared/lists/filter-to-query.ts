import type { FilterCondition, FilterScalar } from './parse-filter.js';

export type FilterQueryObject = Record<string, unknown>;

/**
 * Checked conditions → a MikroORM filter object. MikroORM binds every value as a parameter, so
 * no filter text ever becomes SQL. Dotted paths become nested objects (`{type: {name: …}}`),
 * which MikroORM turns into joins for relations and `->>` for JSON members.
 */
export function filterToQuery(conditions: FilterCondition[]): FilterQueryObject {
  if (conditions.length === 0) return {};
  return { $and: conditions.map((condition) => nest(condition.path, operatorQuery(condition))) };
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

/** `%` stays the wildcard (decisions.md §4); `_` and `\` match themselves. */
export function escapeLike(pattern: string): string {
  return pattern.replace(/[\\_]/g, (char) => `\\${char}`);
}

function nest(path: string, query: unknown): FilterQueryObject {
  return path
    .split('.')
    .reduceRight<unknown>((inner, key) => ({ [key]: inner }), query) as FilterQueryObject;
}
