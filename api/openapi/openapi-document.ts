import { generateSpecs } from 'hono-openapi';
import { Type } from 'typebox';
import type { App } from '../app-env.js';
import { WEBHOOKS } from '../webhooks/schema.js';
import { ERROR_RESPONSES, ErrorEnvelope } from './describe.js';
import { liftNamedSchemas } from './named-schemas.js';
import { OVERVIEW } from './overview.js';

const integer = (description: string) => ({ description, schema: Type.Integer({ minimum: 0 }) });

/** Response headers, declared once and referred to by every answer that carries them. */
const HEADERS = {
  XRequestId: {
    description: "This request's id: the caller's X-Request-Id when it sent a usable one, else one made here",
    schema: Type.String({ examples: ['5f0c7a8e-2b1d-4c1e-9a53-0f1f9b6d2c47'] }),
  },
  ContentRange: {
    description:
      'Where this page sits in the whole list: `<resource> <first>-<last>/<total>`, 0-based and inclusive, ' +
      'or `<resource> */0` for an empty list',
    schema: Type.String({ examples: ['event_type 0-9/42'] }),
  },
  IdempotentReplayed: {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
    schema: Type.Literal('true'),
  },
  RateLimitLimit: integer("The API key's sustained rate, in requests a second"),
  RateLimitRemaining: integer('How many requests the API key may still make at once'),
  RateLimitReset: integer("Seconds until the API key's bucket is full again"),
  RetryAfter: integer('Seconds to wait before retrying'),
};

/** Each group of operations, in the order the reference shows them, with what it is for. */
const TAGS: { name: string; description: string }[] = [
  { name: 'Event types', description: 'The kinds of event your systems report, each with an optional payload schema.' },
  {
    name: 'Events',
    description: 'Reporting what members do, and reading what it earned: the hot path of the platform.',
  },
  { name: 'Reactors', description: 'Rules that turn registered events into points, webhook deliveries and vouchers.' },
  {
    name: 'Users',
    description: "Members: registration, profiles and erasure; `/users/me` with the member's own token.",
  },
  {
    name: 'Consents',
    description:
      'What members consent to, with its text per locale and version, and the consents each member gave or withdrew.',
  },
  {
    name: 'Wallets',
    description: "A member's points, read from the append-only ledger, and the vouchers the member holds.",
  },
  {
    name: 'Points',
    description:
      "A member's points over time: the history that names the cause of every entry, and admins' adjustments, one at a time or up to 100,000 in one job.",
  },
  {
    name: 'Referrals',
    description:
      'Members invite members: referral campaigns, invite codes, clicks on invites, and the events a referred registration reports.',
  },
  { name: 'Jobs', description: 'Long work a request started and answered 202 for, followed until it is done.' },
  { name: 'Vouchers', description: 'Redeeming and validating vouchers at the till.' },
  {
    name: 'Rewards',
    description: 'The catalogue members spend their points on, and the code pools its vouchers take codes from.',
  },
  {
    name: 'Webhooks',
    description: 'Subscriptions that receive registered events as signed requests, and their deliveries.',
  },
  { name: 'Orders', description: 'Point-of-sale orders, each reported as an ORDER_PLACED event.' },
  {
    name: 'Receipts',
    description: 'Receipt claims, read by OCR or sent parsed, decided by automated checks or by a person.',
  },
  { name: 'Transactions rule engine', description: 'Rule sets that decide receipts, and a dry run of them.' },
  { name: 'Products', description: 'The catalogue line items are matched against, for BASKET rules.' },
  { name: 'Purchases', description: 'Rewards bought with points: vouchers, and products ordered from partners.' },
  { name: 'Venues', description: 'The places receipts may come from.' },
  { name: 'Tenant', description: "The API key's own tenant: its name, user-token authentication and settings." },
  { name: 'Audit log', description: 'Who changed what in the tenant, and when.' },
  { name: 'Operations', description: 'Probes and metrics for the orchestrator; no API key.' },
];

/** Request headers every operation (or every creating one) takes. */
const PARAMETERS = {
  XRequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description:
      'Your id for this request (1 to 128 letters, digits, `.`, `:`, `_` or `-`), echoed in the answer and ' +
      'in our logs; without it one is made',
    schema: Type.String({ pattern: '^[\\w.:-]{1,128}$' }),
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key and body within 24 h answer the first answer again (with ' +
      '`Idempotent-Replayed: true`) and create nothing twice; another body under the key is 422',
    schema: Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' }),
    example: '0b9d3f7e-6c2a-4f5e-8d41-7a1c2e9b3f60',
  },
};

/** The answer of each error status, its envelope and an example; the 429 and 503 with when to retry. */
function errorResponses(): Record<string, object> {
  const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, error]) => {
      const headers: Record<string, object> = { 'X-Request-Id': header('XRequestId') };
      if (status === '429')
        Object.assign(headers, {
          'Retry-After': header('RetryAfter'),
          'RateLimit-Limit': header('RateLimitLimit'),
          'RateLimit-Remaining': header('RateLimitRemaining'),
          'RateLimit-Reset': header('RateLimitReset'),
        });
      if (status === '503') headers['Retry-After'] = header('RetryAfter');
      const example = {
        status: Number(status) >= 500 ? 'error' : 'fail',
        message: error.message,
        data: { name: error.error, httpCode: Number(status), message: error.message },
      };
      return [
        error.name,
        {
          description: error.description,
          headers,
          content: { 'application/json': { schema: ErrorEnvelope, example } },
        },
      ];
    }),
  );
}

/**
 * The OpenAPI 3.1 document of every route `app` serves, from each route's own `describe` entry,
 * with the shared headers, errors and webhooks, and every named schema in `components.schemas`.
 * It reads no connection: `npm run openapi` prints it from an app built without any.
 */
export async function openApiDocument(app: App, publicBaseUrl: string): Promise<object> {
  // A process serving the receipts service alone has no webhooks to describe.
  const servesWebhooks = app.routes.some((route) => route.path === '/v1/webhooks');
  const document = await generateSpecs(app, {
    documentation: {
      openapi: '3.1.0',
      info: {
        title: 'Tally API',
        version: '1',
        description: OVERVIEW,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: publicBaseUrl, description: 'This installation' }],
      ...(servesWebhooks ? { webhooks: WEBHOOKS as never } : {}),
      components: {
        parameters: PARAMETERS as never,
        headers: HEADERS as never,
        responses: errorResponses() as never,
        securitySchemes: {
          ApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: "The tenant's API key (`tly_…`), on every /v1 request",
          },
          AdminToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'An admin token minted with `tally token admin` for this tenant, carrying the scope the operation names ' +
              '(`admin:X` also grants `read:X`)',
          },
          MemberToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              "A member's own token from the tenant's identity provider: its `sub` is the member's `authIdentifier`",
          },
          EventTypeSecret: {
            type: 'http',
            scheme: 'bearer',
            description: "A private event type's secret (`ets_…`), to report events of that type",
          },
        },
      },
    },
  });
  const operations = Object.values(document.paths as Record<string, Record<string, { tags?: string[] }>>);
  const used = new Set(operations.flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])));
  // Only the error answers some operation gives: a status no route serves yet (410 before the
  // voucher routes) would be an unused component, which the document's linter refuses.
  const paths = JSON.stringify(document.paths);
  const components = document.components as { responses: Record<string, object> };
  const responses = Object.fromEntries(
    Object.entries(components.responses).filter(([name]) => paths.includes(`"#/components/responses/${name}"`)),
  );
  return liftNamedSchemas({
    ...document,
    components: { ...components, responses },
    tags: TAGS.filter((tag) => used.has(tag.name)),
  } as never);
}
