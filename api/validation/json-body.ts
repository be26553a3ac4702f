import type { MiddlewareHandler } from 'hono';
import type { Static, TSchema } from 'typebox';
import { BadRequestError, ValidationError, type ValidationIssue } from '../../shared/platform/errors/app-errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../shared/platform/json/nesting-depth.js';
import { UNSTORABLE_TEXT_RULE, unstorableTextAt } from '../../shared/platform/json/unstorable-text.js';
import { compile, toValidationIssues } from '../../shared/platform/validation/ajv.js';
import type { AppEnv } from '../app-env.js';

function isUnknownTopLevelField(issue: ValidationIssue): boolean {
  return 'additionalProperties' in issue.constraints && !issue.property.includes('.');
}

/** What a route validated by `jsonBody(schema)` reads with `c.req.valid('json')`. */
export type JsonInput<S extends TSchema> = { in: { json: Static<S> }; out: { json: Static<S> } };

export interface JsonBodyOptions {
  /**
   * docs/users.md#registration: user registration and profile changes answer 400 BadRequestError (with the
   * same `data.errors` items); every other body answers 400 ValidationError. A top-level field the
   * route does not take is a fault of the body's shape, not of the profile, on every route, so it
   * stays a ValidationError (docs/users.md#changes: `isRestricted` sent to PATCH /users/me is 400
   * ValidationError); an unknown field inside `profile` is a profile fault.
   */
  failAs?: 'ValidationError' | 'BadRequestError';
  /**
   * A route that also takes `text/csv` (POST /v1/points-adjustments/bulk): reads the CSV text into
   * the document the schema then validates, or throws a 400 naming the CSV's faulty line.
   */
  csv?: (text: string) => unknown;
}

const CSV_TYPE = /^text\/csv\s*(;|$)/i;

/**
 * Parses and validates a JSON body against its one schema, the same schema the OpenAPI document
 * shows; the handler reads it typed with `c.req.valid('json')`. Any failure is 400 ValidationError.
 * The body is parsed whatever the Content-Type says: a JSON body sent without it is still JSON.
 */
export function jsonBody<S extends TSchema>(
  schema: S,
  options: JsonBodyOptions = {},
): MiddlewareHandler<AppEnv, string, JsonInput<S>> {
  const validate = compile<Static<S>>(schema);
  const fail = (message: string, errors: ValidationIssue[]) =>
    options.failAs === 'BadRequestError' && !errors.some(isUnknownTopLevelField)
      ? new BadRequestError(message, { data: { errors } })
      : new ValidationError(message, errors);
  return async (c, next) => {
    let text = await c.req.text();
    let value: unknown;
    if (options.csv && CSV_TYPE.test(c.req.header('content-type') ?? '')) {
      value = options.csv(text);
      // What is checked below is the document read from the CSV, as if it had come as JSON.
      text = JSON.stringify(value);
    } else
      try {
        value = JSON.parse(text);
      } catch {
        throw fail('The request body is not valid JSON', [
          {
            property: '(body)',
            value: text.slice(0, 100),
            constraints: { isJson: 'the body must be a JSON document' },
            children: [],
          },
        ]);
      }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      const constraint = `the body may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep`;
      throw fail(`Invalid body: ${constraint}`, [
        { property: '(body)', value: undefined, constraints: { maxDepth: constraint }, children: [] },
      ]);
    }
    if (!validate(value)) {
      const issues = toValidationIssues(validate.errors, value);
      throw fail(`Invalid body: ${issues.flatMap((issue) => Object.values(issue.constraints)).join('; ')}`, issues);
    }
    // Refused here, on every route, rather than by PostgreSQL: an event's payload is stored by a
    // worker after the report was answered 201, and elsewhere the driver fails the query as a
    // protocol error.
    const unstorable = unstorableTextAt(value, text);
    if (unstorable !== undefined) {
      const property = unstorable || '(body)';
      throw fail(`Invalid body: ${property}: ${UNSTORABLE_TEXT_RULE}`, [
        { property, value: undefined, constraints: { storable: UNSTORABLE_TEXT_RULE }, children: [] },
      ]);
    }
    c.req.addValidatedData('json', value as object);
    await next();
  };
}
