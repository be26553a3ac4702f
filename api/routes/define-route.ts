import type { Context, Handler, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Static, TObject, TSchema } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import type { App, AppEnv } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { routeBodyLimit } from '../middleware/body-limit.js';
import { idempotent, type IdempotencyOptions } from '../middleware/idempotency.js';
import { describe, type RouteDocumentation } from '../openapi/describe.js';
import { jsonBody, type JsonBodyOptions, type JsonInput } from '../validation/json-body.js';
import type { DeclaredOnly } from '../../shared/platform/validation/declared-fields.js';
import { Answer, success } from './answer.js';
import { openApiParameters } from './openapi-parameters.js';
import {
  isRequestInput,
  pathParameters,
  schemaInput,
  type InputDefinition,
  type InputOf,
  type RequestInput,
} from './request-input.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a handler reads: the validated body, path parameters and query, typed by their schemas. */
export interface RouteInput<Body, Params, Query> {
  body: Body;
  params: Params;
  query: Query;
}

export type Responses = RouteDocumentation['responses'];

/**
 * What a handler may answer with: the `data` of one of its declared responses, typed by that
 * response's schema (a response without one carries none), so the compiler holds each handler to
 * what the OpenAPI document promises.
 */
type DataOf<R extends Responses> = {
  [Status in keyof R]: R[Status] extends { data: infer Schema extends TSchema } ? Static<Schema> : undefined;
}[keyof R];

/** A handler's answer: the data of a declared response, the same with its status or headers, or a Response. */
export type HandlerResult<R extends Responses> = DataOf<R> | Answer<DataOf<R>> | Response;

/** What a handler's result answers as `data`: an Answer's data, or the result itself. */
type AnsweredData<Result> = Result extends Answer<infer Data> ? Data : Result;

/** A route whose handler answers fields its schema lacks names them, and the compiler refuses it. */
export type DeclaredFieldsOnly<Result, R extends Responses> =
  unknown extends DeclaredOnly<AnsweredData<Awaited<Result>>, DataOf<R>>
    ? unknown
    : { handler: DeclaredOnly<AnsweredData<Awaited<Result>>, DataOf<R>> };

export interface RouteDefinition<
  Body extends TSchema | undefined,
  Params extends TObject | undefined,
  Query extends InputDefinition | undefined,
  R extends Responses = Responses,
  Result = HandlerResult<R>,
> {
  method: Method;
  path: string;
  /**
   * The client method's name in generated clients: a verb and the resource in camelCase
   * (`listEventTypes`, `createRuleSetRule`), unique in the document.
   */
  operationId: string;
  /** One line: what the route does. */
  summary: string;
  /** What a caller must know to call it (Markdown): behaviour, limits, what each answer means. */
  description: string;
  tags: string[];
  /** Who may call: checked by the authorize middleware, unless an event type's secret may call (Access). */
  access: RouteDocumentation['access'];
  /** The path parameters, each declaring its format: a value outside it is 404 (`pathParameters`). */
  params?: Params;
  query?: Query;
  body?: Body;
  bodyOptions?: JsonBodyOptions;
  /** A limit of this route's own, in place of the 1 MB of every /v1 request (api/middleware/body-limit.ts). */
  bodyLimit?: number;
  /** Idempotency-Key (docs/api-conventions.md#idempotency), for a route that creates something. */
  idempotency?: IdempotencyOptions;
  responses: R;
  errors?: number[];
  /**
   * The document's example of this route: its request body (required when it takes one, and typed by
   * the body's schema) and the `data` of its main success answer. test/platform/openapi.test.ts checks
   * both against their schemas.
   */
  examples: ExamplesOf<Body>;
  /**
   * Returns the answer's `data`, wrapped in the success envelope with the route's success status
   * (the lowest of `responses`); or an `Answer` for another status or headers; or a Response.
   */
  // A method, so that any route's handler is one of AnyRoute's, which the wrapper calls.
  handler?(
    input: RouteInput<Body extends TSchema ? Static<Body> : undefined, InputOf<Params>, InputOf<Query>>,
    c: Context<AppEnv>,
  ): Result | Promise<Result>;
  /**
   * A plain Hono handler, mounted as it is: for the hot path, which writes a pre-serialised body
   * and must not pay for the wrapping (no route parameters or query are parsed for it).
   */
  rawHandler?: Handler<AppEnv, string, JsonInput<Body extends TSchema ? Body : TObject>>;
}

/** A route with a body shows an example of it; a route without one shows only its answer. */
export type ExamplesOf<Body> = [Body] extends [TSchema]
  ? { request: Static<Body>; response: unknown }
  : { request?: never; response: unknown };

const NONE = Object.freeze({});

/**
 * Declares a route once: its OpenAPI entry, authorization, body limit, Idempotency-Key, body,
 * path and query validation, and the success envelope, all from this one definition. Everything is
 * decided here, at registration; a request only runs the middleware its route asked for.
 */
export function defineRoute<
  Body extends TSchema | undefined = undefined,
  Params extends TObject | undefined = undefined,
  Query extends InputDefinition | undefined = undefined,
  const R extends Responses = Responses,
  Result extends HandlerResult<R> = HandlerResult<R>,
>(
  app: App,
  context: AppContext,
  route: RouteDefinition<Body, Params, Query, R, Result> & DeclaredFieldsOnly<Result, R>,
): void {
  const typed: RouteDefinition<Body, Params, Query, R, Result> = route;
  registerRoute(app, context, typed);
}

/** Registers a route its caller has typed already (defineRoute, defineMemberRoute, collectionRoutes). */
export function registerRoute(app: App, context: AppContext, route: AnyRoute): void {
  const query = queryOf(route);
  const parameters = [
    ...(route.params ? openApiParameters(route.params, 'path') : []),
    ...(query ? openApiParameters(query.schema, 'query') : []),
  ];
  const documentation = describe({
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: route.tags,
    access: route.access,
    ...(route.body ? { body: route.body } : {}),
    ...(parameters.length ? { parameters } : {}),
    responses: route.responses,
    ...(route.errors ? { errors: route.errors } : {}),
    ...(route.idempotency ? { idempotent: true } : {}),
    examples: route.examples,
  });
  const chain = [documentation, ...routeMiddleware(context, route), routeHandler(route, query)];
  app.on(route.method.toUpperCase(), route.path, ...(chain as [MiddlewareHandler<AppEnv>]));
}

type AnyRoute = RouteDefinition<
  TSchema | undefined,
  TObject | undefined,
  InputDefinition | undefined,
  Responses,
  unknown
>;

/** The route's own middleware, in order: authorization, body limit, path parameters, Idempotency-Key, body. */
export function routeMiddleware(
  context: AppContext,
  route: Omit<AnyRoute, 'handler' | 'rawHandler' | 'examples'>,
): MiddlewareHandler<AppEnv>[] {
  const chain: MiddlewareHandler<AppEnv>[] = [];
  if (typeof route.access === 'object' && !('eventTypeSecret' in route.access))
    chain.push(authorize(context, route.access));
  if (route.bodyLimit !== undefined) chain.push(routeBodyLimit(route.bodyLimit));
  if (route.params) chain.push(pathParameters(route.params));
  if (route.idempotency) chain.push(idempotent(context, route.idempotency));
  if (route.body) chain.push(jsonBody(route.body, route.bodyOptions) as MiddlewareHandler<AppEnv>);
  return chain;
}

/**
 * The raw handler as it is, or the handler wrapped: its query parsed before (its path parameters
 * and body were, by its middleware), its answer enveloped after.
 */
export function routeHandler(route: AnyRoute, query = queryOf(route)): MiddlewareHandler<AppEnv> {
  if (route.rawHandler) return route.rawHandler as MiddlewareHandler<AppEnv>;
  const { handler } = route;
  if (!handler) throw new Error(`${route.method.toUpperCase()} ${route.path} has neither handler nor rawHandler`);
  const parseQuery = query?.parse;
  const [hasParams, hasBody] = [route.params !== undefined, route.body !== undefined];
  const status = Math.min(...Object.keys(route.responses).map(Number)) as ContentfulStatusCode;
  return async (c) => {
    const params: unknown = hasParams ? c.req.valid('param' as never) : NONE;
    const query = parseQuery ? parseQuery(c.req.query()) : NONE;
    const body: unknown = hasBody ? c.req.valid('json' as never) : undefined;
    const result = await handler({ body, params, query } as never, c);
    if (result instanceof Response) return result;
    if (result instanceof Answer) return success(c, result.data, result.status ?? status, result.headers);
    return success(c, result, status);
  };
}

function queryOf(route: Pick<AnyRoute, 'query'>): RequestInput<unknown> | undefined {
  if (!route.query) return undefined;
  return isRequestInput(route.query) ? route.query : schemaInput(route.query);
}
