import type { MiddlewareHandler } from 'hono';
import { describeRoute } from 'hono-openapi';
import { Type, type TSchema } from 'typebox';
import type { Access } from '../middleware/authorize.js';

/** What a route shows of itself in the document: an example of its request body and of its answer's `data`. */
export interface RouteExamples {
  /** The request body, for a route that takes one. */
  request?: unknown;
  /** The `data` of the route's main success answer (the lowest success status). */
  response: unknown;
}

export interface RouteDocumentation {
  /** The client method's name: a verb and the resource, camelCase (`listEventTypes`, `createRuleSetRule`). */
  operationId: string;
  summary: string;
  /** What the route does and what a caller must know to call it, in a few sentences of Markdown. */
  description: string;
  tags: string[];
  /** 'public' for the operational routes; 'apiKey' for /v1 routes that take no token. */
  access: 'public' | 'apiKey' | Access;
  body?: TSchema;
  parameters?: object[];
  /** Success answers: status → description and the schema of `data`, which has a `title` (a named schema). */
  responses: Record<number, { description: string; data?: TSchema; contentType?: string }>;
  /** Further error statuses this route answers, beyond those every route shares. */
  errors?: number[];
  /** The route takes an Idempotency-Key (a creating POST). */
  idempotent?: boolean;
  examples: RouteExamples;
}

/** The error envelope of docs/api-conventions.md#errors, shared by every error answer in the document. */
export const ErrorEnvelope = Type.Object(
  {
    status: Type.Union([Type.Literal('fail'), Type.Literal('error')], {
      description: '`fail` for a 4xx answer, `error` for a 5xx',
    }),
    message: Type.String({ description: 'What went wrong, for a person to read' }),
    data: Type.Object(
      {
        name: Type.Optional(Type.String({ description: 'The error class, e.g. `ValidationError`' })),
        httpCode: Type.Optional(Type.Integer()),
        message: Type.Optional(Type.String()),
        errors: Type.Optional(
          Type.Array(
            Type.Object(
              {
                property: Type.String({ description: 'The field at fault, e.g. `reactions.0.type`' }),
                value: Type.Optional(Type.Unknown()),
                constraints: Type.Record(Type.String(), Type.String(), {
                  description: 'Each rule the value broke, with its message',
                }),
                children: Type.Array(Type.Unknown()),
              },
              { title: 'FieldError' },
            ),
          ),
        ),
      },
      { additionalProperties: true, title: 'ErrorDetails' },
    ),
  },
  { title: 'ErrorEnvelope' },
);

/** Each error status a route may answer: its component name in `#/components/responses`, and what it means. */
export const ERROR_RESPONSES: Record<number, { name: string; description: string; error: string; message: string }> = {
  400: {
    name: 'BadRequest',
    description: 'ValidationError or BadRequestError: the request is malformed; `data.errors` names each field',
    error: 'ValidationError',
    message: 'Invalid body: name must match pattern "^[A-Z]+(_[A-Z]+)*$"',
  },
  401: {
    name: 'Unauthorized',
    description: 'UnauthorizedError: a missing, invalid, expired or under-scoped bearer token',
    error: 'UnauthorizedError',
    message: 'The token lacks the scope admin:event_types',
  },
  403: {
    name: 'Forbidden',
    description: 'InvalidApiKeyError: a missing or unknown X-Api-Key',
    error: 'InvalidApiKeyError',
    message: 'Invalid API key',
  },
  404: {
    name: 'NotFound',
    description: 'NotFoundError: no such resource in this tenant',
    error: 'NotFoundError',
    message: 'No event type named PURCHASE',
  },
  409: {
    name: 'Conflict',
    description:
      'ConflictError: a unique value is taken, or the same Idempotency-Key is still being processed; ' +
      "VoucherCodePoolExhaustedError: the reward's pool of codes is empty; VoucherAlreadyValidatedError: the code was burned at a till already",
    error: 'ConflictError',
    message: 'An event type named PURCHASE already exists',
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'PayloadTooLargeError: the body is over its limit',
    error: 'PayloadTooLargeError',
    message: 'Request body is larger than the limit of 1048576 bytes',
  },
  422: {
    name: 'Unprocessable',
    description:
      'The request is well-formed but cannot be done: an Idempotency-Key reused with another body ' +
      '(IdempotencyKeyReusedError), a member already registered (UserExistsError), a rule set the engine cannot run on the transaction ' +
      '(RuleEngineError), tenant configuration that cannot be used (TenantConfigurationError), a balance too small ' +
      "(InsufficientPointsError), a spend beyond the period's spend cap (PointsCapExceededError), a reward not for sale (RewardNotPurchasableError) or not available now (RewardUnavailableError)",
    error: 'IdempotencyKeyReusedError',
    message: 'This Idempotency-Key was already used with another request body',
  },
  410: {
    name: 'Gone',
    description:
      'VoucherExpiredError: the voucher is past its expiry, or was redeemed and not validated within its redemption window',
    error: 'VoucherExpiredError',
    message: 'The voucher expired at 2026-03-01T00:00:00.000Z',
  },
  429: {
    name: 'TooManyRequests',
    description: 'TooManyRequestsError: over the rate limit; retry after the seconds in Retry-After',
    error: 'TooManyRequestsError',
    message: 'Too many requests: slow down and retry after the time in Retry-After',
  },
  500: {
    name: 'InternalError',
    description: 'InternalError: an unexpected failure, logged with the request id; the message is always the same',
    error: 'InternalError',
    message: 'Internal server error',
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'ServiceUnavailableError: a dependency (PostgreSQL or Redis) does not answer; retry after Retry-After',
    error: 'ServiceUnavailableError',
    message: 'Not ready: PostgreSQL did not answer',
  },
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('RateLimitLimit'),
  'RateLimit-Remaining': header('RateLimitRemaining'),
  'RateLimit-Reset': header('RateLimitReset'),
};

/**
 * The OpenAPI entry of a route, from the same TypeBox schemas that validate it, so the document
 * cannot drift from what the route accepts. Bodies and answers are named schemas (their `title`),
 * which the document lifts into `components.schemas` (named-schemas.ts).
 */
export function describe(documentation: RouteDocumentation): MiddlewareHandler {
  const { access, examples } = documentation;
  const errors = new Set([500, ...(documentation.errors ?? [])]);
  if (access !== 'public') [403, 429].forEach((status) => errors.add(status));
  if (typeof access === 'object') errors.add(401);
  if (documentation.body) [400, 413].forEach((status) => errors.add(status));
  const isList = (documentation.parameters ?? []).some((parameter) => (parameter as { name?: string }).name === 'skip');
  const mainStatus = Math.min(...Object.keys(documentation.responses).map(Number));

  const responses: Record<string, object> = {};
  for (const [status, response] of Object.entries(documentation.responses)) {
    const headers: Record<string, object> = { 'X-Request-Id': header('XRequestId') };
    if (access !== 'public') Object.assign(headers, RATE_LIMIT_HEADERS);
    if (isList) headers['Content-Range'] = header('ContentRange');
    if (documentation.idempotent) headers['Idempotent-Replayed'] = header('IdempotentReplayed');
    const example = Number(status) === mainStatus ? examples.response : undefined;
    responses[status] = {
      description: response.description,
      headers,
      content: response.data
        ? { 'application/json': { schema: envelopeOf(response.data), ...exampleOf(successEnvelope(example)) } }
        : { [response.contentType ?? 'application/json']: { schema: { type: 'string' }, ...exampleOf(example) } },
    };
  }
  for (const status of [...errors].sort()) {
    const error = ERROR_RESPONSES[status];
    if (!error) throw new Error(`${documentation.operationId}: no documented error answer for ${status}`);
    responses[status] = { $ref: `#/components/responses/${error.name}` };
  }

  const parameters = [
    ...(documentation.parameters ?? []),
    { $ref: '#/components/parameters/XRequestId' },
    ...(documentation.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  return describeRoute({
    operationId: documentation.operationId,
    summary: documentation.summary,
    description: documentation.description,
    tags: documentation.tags,
    security: security(access),
    parameters: parameters as never,
    ...(documentation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: documentation.body as never, ...exampleOf(examples.request) } },
          },
        }
      : {}),
    responses: responses as never,
  });
}

function exampleOf(example: unknown): { example?: unknown } {
  return example === undefined ? {} : { example };
}

function successEnvelope(data: unknown): unknown {
  return data === undefined ? undefined : { status: 'success', data };
}

/**
 * The success envelope around a named `data` schema, itself named: `EventTypeAnswer` for one
 * `EventType`, `EventTypeList` for an array of them, so a generated client gets a type per answer.
 */
function envelopeOf(data: TSchema): TSchema {
  const name = nameOf(data);
  const items = (data as { items?: TSchema }).items;
  const title = name ? `${name}Answer` : items && nameOf(items) ? `${nameOf(items)}List` : undefined;
  if (!title) throw new Error(`a response's data must be a named schema (a title), or an array of one`);
  return Type.Object({ status: Type.Literal('success'), data }, { title });
}

function nameOf(schema: TSchema): string | undefined {
  return (schema as { title?: string }).title;
}

/**
 * Who may call, as OpenAPI security requirements: one per kind of bearer the route takes, each
 * beside the API key, so a route open to an admin token and a member's token lists both
 * alternatives (the schemes are in openapi-document.ts).
 */
function security(access: RouteDocumentation['access']): Record<string, string[]>[] {
  if (access === 'public') return [];
  if (access === 'apiKey') return [{ ApiKey: [] }];
  return [
    ...(access.admin ? [{ ApiKey: [], AdminToken: [access.admin] }] : []),
    ...(access.user ? [{ ApiKey: [], MemberToken: [] }] : []),
    ...('eventTypeSecret' in access ? [{ ApiKey: [], EventTypeSecret: [] }] : []),
  ];
}
