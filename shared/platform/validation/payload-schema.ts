import { createHash } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { stringify as canonicalize } from 'safe-stable-stringify';
import { BadRequestError, fieldError, type AppError } from '../errors/app-errors.js';
import { linearRegExp, PatternLimitError, withPatternBudget } from './linear-regexp.js';

/** A JSON Schema as a tenant wrote it: an object of any keywords. */
export type JsonSchema = Record<string, unknown>;

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https:\/\/json-schema\.org\/draft\/2020-12\/schema$/;
const CACHE_LIMIT = 10_000;

/**
 * Tenant-supplied payload schemas (docs/events.md#payload-schemas): draft-07 or 2020-12 by
 * `$schema`, 2020-12 without one. Each distinct schema is compiled once and its validator kept,
 * keyed by the schema's canonical hash, so every event type sharing a schema shares one validator.
 */
export class PayloadSchemaCompiler {
  // Not strict: tenants' schemas may carry annotations ajv does not know. `addUsedSchema: false`
  // keeps a tenant's `$id` from colliding with another tenant's in the shared instance. Patterns
  // run on a linear-time engine: a tenant's pattern meets any shopper's payload.
  private readonly draft07 = withFormats(
    new Ajv({ strict: false, allErrors: true, addUsedSchema: false, code: { regExp: linearRegExp } }),
  );
  private readonly draft2020 = withFormats(
    new Ajv2020({ strict: false, allErrors: true, addUsedSchema: false, code: { regExp: linearRegExp } }),
  );
  private readonly validators = new Map<string, ValidateFunction>();

  /**
   * The validator of a schema; 400 when it does not compile or reaches out. `field`: the body field
   * that sent the schema, which the refusal names as a ValidationError
   * (docs/api-conventions.md#errors); a schema no body sent (a tenant's profileSchema) is refused
   * as a BadRequestError.
   */
  compile(schema: JsonSchema, field?: string): ValidateFunction {
    const text = canonicalize(schema) ?? '';
    const key = createHash('sha256').update(text).digest('base64url');
    const cached = this.validators.get(key);
    if (cached) return cached;
    const refuse = (message: string): AppError =>
      field === undefined ? new BadRequestError(message) : fieldError(field, undefined, 'validSchema', message);
    const remote = findRemoteRef(schema);
    if (remote) throw refuse(`The schema refers to "${remote}": only local references (#…) are allowed`);
    const compiled = this.compileWithDialect(schema, refuse);
    // Only a schema with patterns (`pattern`, `patternProperties`) has pattern work to bound: the
    // others, most event payloads', validate without the guard on the hot path.
    const validator = text.includes('"pattern') ? underPatternBudget(compiled) : compiled;
    if (this.validators.size >= CACHE_LIMIT) this.validators.clear();
    this.validators.set(key, validator);
    return validator;
  }

  private compileWithDialect(schema: JsonSchema, refuse: (message: string) => AppError): ValidateFunction {
    const dialect = schema.$schema;
    const ajv =
      dialect === undefined || (typeof dialect === 'string' && DRAFT_2020_12.test(dialect))
        ? this.draft2020
        : typeof dialect === 'string' && DRAFT_07.test(dialect)
          ? this.draft07
          : undefined;
    if (!ajv) throw refuse("The schema's $schema must be draft-07 or 2020-12");
    try {
      return ajv.compile(schema);
    } catch (error) {
      throw refuse(`The schema does not compile: ${(error as Error).message}`);
    }
  }
}

/**
 * The validator, run under the pattern budget (linear-regexp.ts): what would cost too much fails
 * as a validation error of the document, never as a pass and never as a stalled process.
 */
function underPatternBudget(validator: ValidateFunction): ValidateFunction {
  const guarded = ((data: unknown) => {
    try {
      const valid = withPatternBudget(() => validator(data));
      guarded.errors = validator.errors;
      return valid;
    } catch (error) {
      if (!(error instanceof PatternLimitError)) throw error;
      guarded.errors = [{ instancePath: '', schemaPath: '#', keyword: 'pattern', params: {}, message: error.message }];
      return false;
    }
  }) as ValidateFunction;
  return Object.assign(guarded, { schema: validator.schema, schemaEnv: validator.schemaEnv });
}

function withFormats<T extends Ajv>(ajv: T): T {
  addFormats.default(ajv);
  return ajv;
}

/** The first `$ref` (or `$dynamicRef`) that is not a fragment of the schema itself. */
function findRemoteRef(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findRemoteRef(item);
      if (found) return found;
    }
    return undefined;
  }
  if (node === null || typeof node !== 'object') return undefined;
  for (const [key, value] of Object.entries(node)) {
    if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string' && !value.startsWith('#')) return value;
    const found = findRemoteRef(value);
    if (found) return found;
  }
  return undefined;
}
