import type { MiddlewareHandler } from 'hono';
import { Type, type Static, type TObject, type TSchema, type TString } from 'typebox';
import { NotFoundError, ValidationError, type ValidationIssue } from '../../shared/platform/errors/app-errors.js';
import { holdsUnstorableText, UNSTORABLE_TEXT_RULE } from '../../shared/platform/json/unstorable-text.js';
import { compile, toValidationIssues } from '../../shared/platform/validation/ajv.js';

export type RawInput = Record<string, string | undefined>;

/**
 * A route's query string: the TypeBox schema the OpenAPI document shows, and the parser that turns
 * the raw strings into the handler's typed value or throws a 400. Most routes give a schema alone
 * (`schemaInput`); an input whose answers predate this module (the list parameters, `wait`) keeps
 * its own parser and messages, documented by the same schema.
 */
export interface RequestInput<T> {
  schema: TObject;
  parse: (raw: RawInput) => T;
}

/** A route's `query`: a schema (validated by ajv) or a RequestInput. */
export type InputDefinition = TObject | RequestInput<unknown>;

export type InputOf<D> = D extends RequestInput<infer T> ? T : D extends TObject ? Static<D> : Record<string, never>;

export function isRequestInput(definition: InputDefinition): definition is RequestInput<unknown> {
  return typeof (definition as Partial<RequestInput<unknown>>).parse === 'function';
}

type Reader = (raw: string, type: unknown) => unknown;

/**
 * The raw strings of `schema`'s properties, each read by `read` as the type it declares (a path or
 * query has no other types than strings), and checked by the project's ajv: the value, or what is
 * wrong with it.
 */
function checker<S extends TObject>(schema: S, read: Reader) {
  const validate = compile<Static<S>>(schema);
  const properties = Object.entries(schema.properties as Record<string, TSchema & { type?: unknown }>);
  return (
    raw: RawInput,
  ): { value: Static<S>; issues?: never } | { value: Record<string, unknown>; issues: ValidationIssue[] } => {
    const value: Record<string, unknown> = {};
    for (const [name, property] of properties)
      if (raw[name] !== undefined) value[name] = read(raw[name], property.type);
    return validate(value) ? { value } : { value, issues: toValidationIssues(validate.errors, value) };
  };
}

/** Validation of a query string by its schema itself. A failure is 400 ValidationError naming the field. */
export function schemaInput<S extends TObject>(schema: S): RequestInput<Static<S>> {
  const check = checker(schema, queryValue);
  return {
    schema,
    parse: (raw) => {
      const { value, issues } = check(raw);
      if (issues) throw new ValidationError(`Invalid query: ${constraintsOf(issues).join('; ')}`, issues);
      return value;
    },
  };
}

function queryValue(raw: string, type: unknown): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/**
 * The route's path parameters, checked by the format their schema declares before the route looks
 * anything up (its Idempotency-Key replay included), and handed to the handler as
 * `c.req.valid('param')`. A value outside the format (an id that is no uuid, digits past the
 * column's range, a name no record can have, text PostgreSQL cannot hold) names no record: it is
 * 404 NotFoundError like an unknown id (docs/api-conventions.md#ids), never a 400, and never a
 * query PostgreSQL refuses with a 500.
 */
export function pathParameters(schema: TObject): MiddlewareHandler {
  const check = checker(schema, pathValue);
  const integers = new Set(
    Object.entries(schema.properties as Record<string, { type?: unknown }>)
      .filter(([, property]) => property.type === 'integer')
      .map(([name]) => name),
  );
  return async (c, next) => {
    const raw = c.req.param() as RawInput;
    const unstorable = Object.entries(raw).find(([, text]) => text !== undefined && holdsUnstorableText(text));
    if (unstorable) throw namesNothing(unstorable[0], unstorable[1]!, UNSTORABLE_TEXT_RULE);
    const { value, issues } = check(raw);
    if (issues) {
      const [{ property, constraints }] = issues as [ValidationIssue];
      throw namesNothing(property, raw[property] ?? '', refusal(constraints, integers.has(property)));
    }
    c.req.addValidatedData('param', value);
    await next();
  };
}

/** Why a value is refused, from ajv's constraints: a union's branches are alternatives, a number's text has one form. */
function refusal(constraints: Record<string, string>, integer: boolean): string {
  const { anyOf, type, ...rest } = constraints;
  if (type !== undefined && integer)
    return 'it must be a whole number in decimal digits, without a sign or leading zeros';
  return [...(type === undefined ? [] : [type]), ...Object.values(rest)].join(anyOf === undefined ? '; ' : ' or ');
}

function namesNothing(name: string, text: string, reason: string): NotFoundError {
  return new NotFoundError(`Nothing has the ${name} ${JSON.stringify(text)}: ${reason}`);
}

/**
 * An integer in a path is its canonical decimal text alone: `7`, never `07`, `+7`, `7.0` or `7e0`,
 * so one id has one address. Its range is the schema's to state (the column's, and at most a
 * JavaScript number's exact integers).
 */
const CANONICAL_INTEGER = /^(0|-?[1-9]\d*)$/;

function pathValue(raw: string, type: unknown): unknown {
  return type === 'integer' && CANONICAL_INTEGER.test(raw) ? Number(raw) : raw;
}

function constraintsOf(issues: ValidationIssue[]): string[] {
  return issues.flatMap((issue) => Object.values(issue.constraints));
}

/** Uuid path parameters, each with what it names and the id of that resource in the document's examples. */
export function uuidPath<Names extends string>(
  parameters: Record<Names, { description: string; example: string }>,
): TObject<Record<Names, TString>> {
  return Type.Object(
    Object.fromEntries(
      Object.entries<{ description: string; example: string }>(parameters).map(([name, { description, example }]) => [
        name,
        Type.String({ format: 'uuid', description, examples: [example] }),
      ]),
    ) as Record<Names, TString>,
  );
}
