import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidationIssue } from '../errors/app-errors.js';

/**
 * The validator for our own schemas (request bodies, job payloads): JSON Schema 2020-12, the
 * dialect of TypeBox and of OpenAPI 3.1, compiled once at module load and reused.
 */
const ajv = new Ajv2020({ strict: true, allErrors: true, coerceTypes: false, useDefaults: false });
addFormats.default(ajv);

export function compile<T>(schema: object): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}

/** ajv's errors in the `data.errors` item shape of docs/api-conventions.md#errors, one item per property. */
export function toValidationIssues(errors: ErrorObject[] | null | undefined, value: unknown): ValidationIssue[] {
  const byProperty = new Map<string, ValidationIssue>();
  for (const error of errors ?? []) {
    const property = propertyOf(error);
    const issue = byProperty.get(property) ?? {
      property: property || '(body)',
      value: valueAt(value, error, property),
      constraints: {},
      children: [],
    };
    issue.constraints[error.keyword] = describe(error, property);
    byProperty.set(property, issue);
  }
  return [...byProperty.values()];
}

function propertyOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map(unescapePointer);
  const missing = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === 'required' && missing.missingProperty) path.push(missing.missingProperty);
  if (error.keyword === 'additionalProperties' && missing.additionalProperty) path.push(missing.additionalProperty);
  return path.join('.');
}

function describe(error: ErrorObject, property: string): string {
  const name = property || 'body';
  if (error.keyword === 'additionalProperties') return `${name} is not an accepted field`;
  if (error.keyword === 'required') return `${name} is required`;
  return `${name} ${error.message ?? 'is invalid'}`;
}

function valueAt(root: unknown, error: ErrorObject, property: string): unknown {
  if (error.keyword === 'required') return undefined;
  let current: unknown = root;
  for (const key of property ? property.split('.') : []) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
