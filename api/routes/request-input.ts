import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { ValidationError } from '../../shared/platform/errors/app-errors.js';
import { compile, toValidationIssues } from '../../shared/platform/validation/ajv.js';

export type RawInput = Record<string, string | undefined>;

/**
 * A route's path parameters or query string: the TypeBox schema the OpenAPI document shows, and
 * the parser that turns the raw strings into the handler's typed value or throws a 400. Most routes
 * give a schema alone (`schemaInput`); an input whose answers predate this module (the list
 * parameters, `wait`) keeps its own parser and messages, documented by the same schema.
 */
export interface RequestInput<T> {
  schema: TObject;
  parse: (raw: RawInput) => T;
}

/** A route's `params` or `query`: a schema (validated by ajv) or a RequestInput. */
export type InputDefinition = TObject | RequestInput<unknown>;

export type InputOf<D> = D extends RequestInput<infer T> ? T : D extends TObject ? Static<D> : Record<string, never>;

export function isRequestInput(definition: InputDefinition): definition is RequestInput<unknown> {
  return typeof (definition as Partial<RequestInput<unknown>>).parse === 'function';
}

/**
 * Validation by the schema itself, with the project's ajv: each raw string is first read as the
 * type its property declares (a number, a boolean), since a query string has no other types.
 * A failure is 400 ValidationError naming the field.
 */
export function schemaInput<S extends TObject>(schema: S, where: 'path' | 'query'): RequestInput<Static<S>> {
  const validate = compile<Static<S>>(schema);
  const properties = Object.entries(schema.properties as Record<string, TSchema & { type?: unknown }>);
  return {
    schema,
    parse: (raw) => {
      const value: Record<string, unknown> = {};
      for (const [name, property] of properties)
        if (raw[name] !== undefined) value[name] = typed(raw[name], property.type);
      if (!validate(value)) {
        const issues = toValidationIssues(validate.errors, value);
        throw new ValidationError(
          `Invalid ${where}: ${issues.flatMap((issue) => Object.values(issue.constraints)).join('; ')}`,
          issues,
        );
      }
      return value;
    },
  };
}

function typed(raw: string, type: unknown): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/**
 * Uuid path parameters, each with what it names and the id of that resource in the document's
 * examples, documented as uuids but not refused here: a malformed id names nothing, so the service
 * answers it 404 like any unknown id (shared/db/tenant-record.ts), as it always has.
 */
export function uuidPath<Names extends string>(
  parameters: Record<Names, { description: string; example: string }>,
): RequestInput<Record<Names, string>> {
  const schema = Type.Object(
    Object.fromEntries(
      Object.entries<{ description: string; example: string }>(parameters).map(([name, { description, example }]) => [
        name,
        Type.String({ format: 'uuid', description, examples: [example] }),
      ]),
    ),
  );
  return { schema, parse: (raw) => raw as Record<Names, string> };
}
