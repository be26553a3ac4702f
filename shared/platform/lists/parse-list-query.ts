import { filterToQuery, type FilterQueryObject } from './filter-to-query.js';
import type { ListSpec } from './list-spec.js';
import { fieldError } from '../errors/app-errors.js';
import { parseFilter, type FilterCondition } from './parse-filter.js';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;

export interface ListQuery {
  limit: number;
  offset: number;
  /** Nested for dotted paths, with the id as a tie-breaker so pages never overlap. */
  orderBy: Record<string, unknown>;
  where: FilterQueryObject;
  /** The same order and filter, checked, for a list read in memory (page-in-memory.ts). */
  sort: { path: string; descending: boolean };
  conditions: FilterCondition[];
}

/** limit, skip, sort, order and filter of docs/api-conventions.md#lists against one endpoint's allow-list. */
export function parseListQuery(query: Record<string, string | undefined>, spec: ListSpec): ListQuery {
  const limit = wholeNumber(query, 'limit', DEFAULT_LIMIT, 1);
  if (limit > MAX_LIMIT) throw fieldError('limit', query.limit, 'max', `limit must be at most ${MAX_LIMIT}`);
  const offset = wholeNumber(query, 'skip', 0, 0);

  const sort = query.sort ?? spec.defaultSort;
  const field = spec.fields[sort];
  if (!field?.sortable && sort !== spec.defaultSort) {
    const sortable = Object.entries(spec.fields)
      .filter(([, f]) => f.sortable)
      .map(([name]) => name);
    throw fieldError('sort', sort, 'isIn', `sort must be one of ${sortable.join(', ')}`);
  }
  const order = (query.order ?? 'DESC').toUpperCase();
  if (order !== 'ASC' && order !== 'DESC') throw fieldError('order', query.order, 'isIn', 'order must be ASC or DESC');

  const path = field?.path ?? sort;
  const orderBy = path === 'id' ? { id: order } : { ...nestOrder(path, order), id: order };
  const conditions = query.filter ? parseFilter(query.filter, spec) : [];
  return {
    limit,
    offset,
    orderBy,
    where: filterToQuery(conditions),
    sort: { path, descending: order === 'DESC' },
    conditions,
  };
}

function wholeNumber(
  query: Record<string, string | undefined>,
  name: string,
  fallback: number,
  minimum: number,
): number {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < minimum) {
    throw fieldError(name, raw, 'isInt', `${name} must be a whole number of at least ${minimum}`);
  }
  return value;
}

function nestOrder(path: string, order: string): Record<string, unknown> {
  return path.split('.').reduceRight<unknown>((inner, key) => ({ [key]: inner }), order) as Record<string, unknown>;
}
