import { ORISON } from 'rison2';
import type { ListField, ListSpec } from './list-spec.js';
import { fieldError } from '../errors/app-errors.js';
import { isUuid } from '../db/tenant-record.js';

export const FILTER_OPERATORS = ['eq', 'neq', 'gt', 'lt', 'in', 'has', 'like'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export type FilterScalar = string | number | boolean | null | Date;

export interface FilterCondition {
  field: string;
  path: string;
  fieldType: ListField['type'];
  operator: FilterOperator;
  value: FilterScalar | FilterScalar[];
}

const MAX_LENGTH = 2000;
/** `field:(op:!(…))` is two levels of parentheses; nothing legitimate goes deeper. */
const MAX_DEPTH = 2;
const MAX_IN_VALUES = 100;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const FORBIDDEN_KEY_IN_TEXT = /(?:^|[(,])'?(?:__proto__|constructor|prototype)'?:/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Parses the O-Rison `filter` of docs/api-conventions.md#filters (`field:(op:value),…`) into
 * checked conditions. The input is hostile (docs/dependencies.md: rison2): its length and nesting are capped
 * before the parser sees it, prototype keys are refused, and every field, operator and value is
 * checked against the endpoint's allow-list. Any problem is a 400 ValidationError naming the field.
 */
export function parseFilter(raw: string, spec: ListSpec): FilterCondition[] {
  if (raw.length > MAX_LENGTH)
    throw fieldError('filter', `${raw.slice(0, 50)}…`, 'maxLength', `filter is longer than ${MAX_LENGTH} characters`);
  if (nestingDepth(raw) > MAX_DEPTH)
    throw fieldError('filter', raw.slice(0, 100), 'depth', 'filter is nested too deeply');
  if (FORBIDDEN_KEY_IN_TEXT.test(raw))
    throw fieldError('filter', raw.slice(0, 100), 'forbiddenKey', 'filter uses a forbidden key');

  let parsed: unknown;
  try {
    parsed = ORISON.parse(raw);
  } catch (error) {
    throw fieldError('filter', raw.slice(0, 100), 'orison', `filter is not valid O-Rison: ${(error as Error).message}`);
  }
  const fields = plainObject(parsed, 'filter');
  const conditions: FilterCondition[] = [];
  for (const [name, operations] of Object.entries(fields)) {
    const field = spec.fields[name];
    if (!field?.filterable)
      throw fieldError(
        name,
        operations,
        'filterable',
        `${name} is not a filterable field; filterable: ${filterableNames(spec)}`,
      );
    const byOperator = plainObject(operations, name);
    if (Object.keys(byOperator).length === 0) throw fieldError(name, operations, 'operator', `${name} has no operator`);
    for (const [operator, value] of Object.entries(byOperator)) {
      if (!isOperator(operator))
        throw fieldError(
          name,
          operator,
          'operator',
          `${name}: unknown operator ${operator}; use ${FILTER_OPERATORS.join(', ')}`,
        );
      conditions.push({
        field: name,
        path: field.path ?? name,
        fieldType: field.type,
        operator,
        value: checkValue(name, field, operator, value),
      });
    }
  }
  return conditions;
}

/** The deepest parenthesis nesting, counted outside quoted strings (`'…'`, with `!` escapes). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '!') i++;
      else if (char === "'") quoted = false;
    } else if (char === "'") quoted = true;
    else if (char === '(') deepest = Math.max(deepest, ++depth);
    else if (char === ')') depth--;
  }
  return deepest;
}

function plainObject(value: unknown, property: string): Record<string, unknown> {
  if (
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    Object.getPrototypeOf(value) !== Object.prototype
  ) {
    throw fieldError(property, value, 'shape', `${property} must be written as name:(operator:value)`);
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw fieldError(property, key, 'forbiddenKey', `${property} uses a forbidden key`);
  }
  return value as Record<string, unknown>;
}

function isOperator(operator: string): operator is FilterOperator {
  return (FILTER_OPERATORS as readonly string[]).includes(operator);
}

function filterableNames(spec: ListSpec): string {
  return Object.entries(spec.fields)
    .filter(([, field]) => field.filterable)
    .map(([name]) => name)
    .join(', ');
}

function checkValue(
  name: string,
  field: ListField,
  operator: FilterOperator,
  value: unknown,
): FilterScalar | FilterScalar[] {
  const refuse = (message: string) => fieldError(name, value, operator, `${name}: ${message}`);
  switch (operator) {
    case 'in': {
      if (!Array.isArray(value) || value.length === 0) throw refuse('in takes a non-empty array, written !(…)');
      if (value.length > MAX_IN_VALUES) throw refuse(`in takes at most ${MAX_IN_VALUES} values`);
      return value.map((item) => scalar(name, field, item, operator));
    }
    case 'like':
      if (field.type !== 'string') throw refuse('like applies to text fields only');
      if (typeof value !== 'string') throw refuse('like takes a string');
      return value;
    case 'has':
      if (field.type !== 'array' && field.type !== 'object')
        throw refuse('has applies to array and object fields only');
      if (field.type === 'object' && typeof value !== 'string')
        throw refuse('has on an object field takes a key, a string');
      if (value === null || typeof value === 'object') throw refuse('has takes one value');
      return value as FilterScalar;
    case 'gt':
    case 'lt':
      if (!['number', 'datetime', 'string'].includes(field.type))
        throw refuse(`${operator} applies to numbers, dates and text only`);
      return scalar(name, field, value, operator);
    case 'eq':
    case 'neq':
      if (value === null) return null;
      if (field.type === 'array' || field.type === 'object')
        throw refuse(`${operator} on ${field.type} fields takes !n only; use has`);
      return scalar(name, field, value, operator);
  }
}

function scalar(name: string, field: ListField, value: unknown, operator: FilterOperator): FilterScalar {
  const refuse = (expected: string) => fieldError(name, value, operator, `${name}: ${operator} takes ${expected}`);
  switch (field.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw refuse('a number');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw refuse('!t or !f');
      return value;
    case 'datetime': {
      if (typeof value !== 'string' || !ISO_8601.test(value))
        throw refuse("an ISO 8601 date, e.g. '2026-01-31T12:00:00Z'");
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) throw refuse('a real date');
      return date;
    }
    case 'uuid':
      if (typeof value !== 'string' || !isUuid(value)) throw refuse('a UUID');
      return value;
    default:
      if (typeof value !== 'string') throw refuse("a string in quotes, e.g. 'text'");
      return value;
  }
}
