import type { MiddlewareHandler } from 'hono';
import { describeRoute } from 'hono-openapi';
import { Type, type TSchema } from 'typebox';
import type { Access } from '../middleware/authorize.js';

export interface RouteDocumentation {
  summary: string;
  tags: string[];
  /** 'public' for the operational routes; 'apiKey' for /v1 routes that take no token. */
  access: 'public' | 'apiKey' | Access;
  body?: TSchema;
  parameters?: object[];
  /** Success answers: status → description and the schema of `data`. */
  responses: Record<number, { description: string; data?: TSchema; headers?: Record<string, object> }>;
  /** Further error statuses this route answers, beyond those every route shares. */
  errors?: number[];
}

/** The error envelope of docs/api-conventions.md#errors, shared by every error answer in the document. */
export const ErrorEnvelope = Type.Object({
  status: Type.Union([Type.Literal('fail'), Type.Literal('error')]),
  message: Type.String(),
  data: Type.Object(
    {
      name: Type.Optional(Type.String()),
      httpCode: Type.Optional(Type.Integer()),
      message: Type.Optional(Type.String()),
      errors: Type.Optional(
        Type.Array(
          Type.Object({
            property: Type.String(),
            value: Type.Optional(Type.Unknown()),
            constraints: Type.Record(Type.String(), Type.String()),
            children: Type.Array(Type.Unknown()),
          }),
        ),
      ),
    },
    { additionalProperties: true },
  ),
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'ValidationError or BadRequestError: the request is malformed',
  401: 'UnauthorizedError: missing, invalid, expired or under-scoped bearer token',
  403: 'InvalidApiKeyError: missing or unknown X-Api-Key',
  404: 'NotFoundError: no such resource in this tenant',
  409: 'ConflictError',
  413: 'PayloadTooLargeError: the body is over its limit',
  422: 'Unprocessable: for example an Idempotency-Key reused with another body',
  429: 'TooManyRequestsError: over the rate limit; see Retry-After',
  500: 'InternalError',
};

/**
 * The OpenAPI entry of a route, from the same TypeBox schemas that validate it, so the document
 * cannot drift from what the route accepts.
 */
export function describe(documentation: RouteDocumentation): MiddlewareHandler {
  const { access } = documentation;
  const errors = new Set([500, ...(documentation.errors ?? [])]);
  if (access !== 'public') [403, 429].forEach((status) => errors.add(status));
  if (typeof access === 'object') errors.add(401);
  if (documentation.body) [400, 413].forEach((status) => errors.add(status));

  const responses: Record<string, object> = {};
  for (const [status, response] of Object.entries(documentation.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.headers ? { headers: response.headers } : {}),
      content: {
        'application/json': {
          schema: response.data ? Type.Object({ status: Type.Literal('success'), data: response.data }) : {},
        },
      },
    };
  }
  for (const status of [...errors].sort()) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }

  return describeRoute({
    summary: documentation.summary,
    tags: documentation.tags,
    security: security(access),
    ...(documentation.parameters ? { parameters: documentation.parameters as never } : {}),
    ...(documentation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: documentation.body as never } } } }
      : {}),
    responses: responses as never,
  });
}

function security(access: RouteDocumentation['access']) {
  if (access === 'public') return [];
  if (access === 'apiKey') return [{ ApiKey: [] }];
  const scopes = access.admin ? [access.admin] : [];
  return [{ ApiKey: [], BearerAuth: scopes }];
}
