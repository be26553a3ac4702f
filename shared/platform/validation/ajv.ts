import { isIP } from 'node:net';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidationIssue } from '../errors/app-errors.js';
import { readableUnions } from './readable-unions.js';

/**
 * The validator for our own schemas (request bodies, job payloads): JSON Schema 2020-12, the
 * dialect of TypeBox and of OpenAPI 3.1, compiled once at module load and reused. `verbose` hands
 * each error its schema, so a missing field is told the values it takes.
 */
const ajv = new Ajv2020({ strict: true, allErrors: true, coerceTypes: false, useDefaults: false, verbose: true });
addFormats.default(ajv);
// An address of either family, as Node reads one: ajv-formats has ipv4 and ipv6 apart only.
ajv.addFormat('ip', { type: 'string', validate: (value: string) => isIP(value) !== 0 });
/**
 * An http or https address a browser opens: `uri` lets through what the WHATWG parser refuses
 * (`http://`, a port past 65535, `http://999.1.1.1/`), and addresses given to browsers, or built
 * upon with `new URL`, must parse with it and name a host.
 */
ajv.addFormat('web-address', {
  type: 'string',
  validate: (value: string) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return url !== undefined && ['http:', 'https:'].includes(url.protocol) && url.hostname !== '';
  },
});

/** Compiled with its unions rewritten to report against the branch the value picks (readable-unions.ts). */
export function compile<T>(schema: object): ValidateFunction<T> {
  return ajv.compile<T>(readableUnions(schema) as object);
}

/** ajv's errors in the `data.errors` item shape of docs/api-conventions.md#errors, one item per property. */
export function toValidationIssues(errors: ErrorObject[] | null | undefined, value: unknown): ValidationIssue[] {
  const byProperty = new Map<string, ValidationIssue>();
  for (const error of errors ?? []) {
    // "must match the then schema": the branch's own errors, reported beside it, say what.
    if (error.keyword === 'if') continue;
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
  if (error.keyword === 'dependentRequired' && missing.missingProperty) path.push(missing.missingProperty);
  return path.join('.');
}

/** docs/api-conventions.md#request-bodies: each message names the field and, where the schema fixes them, the values it takes. */
function describe(error: ErrorObject, property: string): string {
  const name = property || 'body';
  const params = error.params as { allowedValue?: unknown; allowedValues?: unknown[]; type?: string | string[] };
  switch (error.keyword) {
    case 'additionalProperties':
      return `${name} is not an accepted field`;
    case 'required': {
      const expected = expectedValues(error.parentSchema, property.split('.').at(-1)!);
      return expected ? `${name} is required: ${expected}` : `${name} is required`;
    }
    case 'enum':
      return `${name} must be one of ${(params.allowedValues ?? []).map(shown).join(', ')}`;
    case 'const':
      return `${name} must be equal to ${JSON.stringify(params.allowedValue)}`;
    case 'dependentRequired':
      return `${name} is required with ${(error.params as { property: string }).property}`;
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      return `${name} must be ${types.join(' or ')}`;
    }
    default:
      return `${name} ${error.message ?? 'is invalid'}`;
  }
}

/** "one of A, B" or "\"A\"", when the schema of a missing property fixes its values. */
function expectedValues(parentSchema: unknown, missing: string): string | undefined {
  const properties = (parentSchema as { properties?: Record<string, { enum?: unknown[]; const?: unknown }> })
    ?.properties;
  const schema = properties?.[missing];
  if (Array.isArray(schema?.enum)) return `one of ${schema.enum.map(shown).join(', ')}`;
  if (schema && 'const' in schema) return JSON.stringify(schema.const);
  return undefined;
}

/** An allowed value as a reader types it: a string bare, anything else as JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
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
