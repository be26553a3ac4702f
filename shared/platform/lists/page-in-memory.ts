import type { Page } from './list-spec.js';
import type { FilterCondition, FilterScalar } from './parse-filter.js';
import type { ListQuery } from './parse-list-query.js';

/**
 * A list whose items are held by one record (a rule set's rules live in its row) rather than one
 * row each: the list query of docs/api-conventions.md#lists applied in memory, meaning what the SQL
 * of filter-to-query.ts means. A missing value meets no condition but `eq !n` (as SQL's null meets
 * no comparison), `like` is case-insensitive with `%` its only wildcard, and a sort puts missing
 * values last going up and first going down (PostgreSQL's default). Ties keep the order the items
 * are held in, going up as going down (a stable sort): a rule set's rules of equal priority run in
 * the set's order, which decides whose result key wins, and are listed so. Pages never overlap, as
 * the order held is the same from one read to the next.
 */
export function pageInMemory<Item extends object>(items: readonly Item[], query: ListQuery): Page<Item> {
  const kept = items.filter((item) =>
    query.conditions.every((condition) => meets(valueAt(item, condition.path), condition)),
  );
  const direction = query.sort.descending ? -1 : 1;
  const sorted = kept.sort((a, b) => direction * compare(valueAt(a, query.sort.path), valueAt(b, query.sort.path)));
  return { items: sorted.slice(query.offset, query.offset + query.limit), total: kept.length };
}

function valueAt(item: object, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
      item,
    );
}

function meets(value: unknown, { operator, value: wanted, fieldType }: FilterCondition): boolean {
  if (wanted === null) return operator === 'eq' ? isMissing(value) : !isMissing(value);
  if (isMissing(value)) return false;
  const comparable = (scalar: unknown) => comparableAs(fieldType, scalar);
  switch (operator) {
    case 'eq':
      return comparable(value) === comparable(wanted);
    case 'neq':
      return comparable(value) !== comparable(wanted);
    case 'gt':
      return compare(comparable(value), comparable(wanted)) > 0;
    case 'lt':
      return compare(comparable(value), comparable(wanted)) < 0;
    case 'in':
      return (wanted as FilterScalar[]).some((candidate) => comparable(candidate) === comparable(value));
    case 'like':
      return likePattern(wanted as string).test(String(value));
    case 'has':
      return Array.isArray(value)
        ? value.includes(wanted)
        : typeof value === 'object' && Object.hasOwn(value, String(wanted));
  }
}

function isMissing(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/** Dates as instants (a stored ISO string or a filter's Date), ids in any case (as PostgreSQL's uuid type). */
function comparableAs(fieldType: FilterCondition['fieldType'], value: unknown): unknown {
  if (fieldType === 'datetime') return new Date(value as string | Date).getTime();
  if (fieldType === 'uuid') return String(value).toLowerCase();
  return value;
}

/**
 * Missing values after every other, numbers by size, anything else as text by Unicode code point
 * (the order of its UTF-8 bytes, PostgreSQL's C collation), not by UTF-16 code unit, which puts
 * characters beyond U+FFFF (emoji) before U+E000 to U+FFFF. A table's list follows its database's
 * collation instead, which the operator chooses and Node cannot reproduce (docs/api-conventions.md#lists).
 */
function compare(a: unknown, b: unknown): number {
  if (isMissing(a) || isMissing(b)) return Number(isMissing(a)) - Number(isMissing(b));
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/** escapeLike's meaning (filter-to-query.ts): `%` is any text, everything else itself. */
function likePattern(pattern: string): RegExp {
  const parts = pattern.split('%').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 'is');
}
