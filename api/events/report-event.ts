import type { Context, Handler, MiddlewareHandler } from 'hono';
import type { AppContext } from '../../shared/context.js';
import { Event } from '../../shared/events/event.entity.js';
import { acceptedEventAnswer, storedEventView } from '../../shared/events/event-view.js';
import { unverifiedIssuer } from '../../shared/platform/auth/token-issuer.js';
import { verifyUserToken } from '../../shared/platform/auth/user-token.js';
import { reportEvent, type ReportDependencies } from '../../shared/events/report-event.js';
import { entityManager, type App, type AppEnv } from '../app-env.js';
import { callerOf } from '../middleware/idempotency.js';
import { EVENT_BODY_LIMIT } from '../middleware/body-limit.js';
import { JSON_CONTENT_TYPE, success } from '../routes/answer.js';
import { defineRoute, routeHandler, routeMiddleware, type RouteDefinition } from '../routes/define-route.js';
import type { JsonInput } from '../validation/json-body.js';
import { ACCEPTED_EVENT_EXAMPLE, EventResource, REPORTED_EVENT_EXAMPLE, ReportEventBody, tags } from './schema.js';

/** What POST /v1/events reports with: the context's queue, caches and id allocator. */
export function reportDependencies(context: AppContext): ReportDependencies {
  return {
    eventQueue: context.eventQueue,
    eventTypes: context.eventTypes,
    subjects: context.subjects,
    eventIds: context.eventIds,
    jwks: context.jwks,
    serviceSubject: context.config.publicBaseUrl,
  };
}

/**
 * POST /v1/events, the platform's hot path. Its authorization depends on the event type (a user
 * token for public types, the type's secret for private ones), so it is checked by the service
 * after the type is known, not by the authorize middleware. Its own middleware: the 300 kB limit,
 * the Idempotency-Key, the body's schema. A key reserves the event's id, so a retry after the
 * first request died once its event was accepted queues the same id again, which the worker
 * registers once (issue 17). The handler writes the answer pre-serialised, unwrapped.
 */
function reportEventDefinition(
  context: AppContext,
  dependencies: ReportDependencies,
): RouteDefinition<typeof ReportEventBody, undefined, undefined> {
  const rawHandler: Handler<AppEnv, string, JsonInput<typeof ReportEventBody>> = async (c) => {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const reservedId = c.get('reservedId');
    const event = await reportEvent(
      dependencies,
      c.get('tenant'),
      token,
      c.req.valid('json'),
      reservedId === undefined ? undefined : Number(reservedId),
    );
    return c.body(acceptedEventAnswer(event, dependencies.serviceSubject), 201, { 'Content-Type': JSON_CONTENT_TYPE });
  };
  return {
    method: 'post',
    path: '/v1/events',
    operationId: 'reportEvent',
    description:
      "Reports that something happened. The answer (201) comes as soon as the event is accepted and queued; a worker registers it moments later and runs the reactors of its type, which grant points, give vouchers and queue webhook deliveries. Read the outcome with `GET /v1/events/{id}/reactions`.\n\nWho may report: a public type with the member's own user token (the subject is the token's `sub`); a private type with `Bearer <the type's secret>` and a `subject` (a member's id, authIdentifier or account number). A report equal to one accepted in the last 60 seconds (same type, subject and payload) is refused as a duplicate with 409; retry with the same Idempotency-Key instead, which answers the first event. The body is at most 300 kB.",
    examples: { request: REPORTED_EVENT_EXAMPLE, response: ACCEPTED_EVENT_EXAMPLE },
    summary: 'Report an event: answered as soon as it is queued; a worker registers it and grants its points',
    tags,
    access: { user: true, eventTypeSecret: true },
    bodyLimit: EVENT_BODY_LIMIT,
    idempotency: {
      reserve: async () => String(await context.eventIds.allocate()),
      caller: (c) => reporterOf(context, c),
      recover: (c, reservedId) => registeredEventAnswer(context, c, Number(reservedId)),
    },
    body: ReportEventBody,
    responses: { 201: { description: 'accepted', data: EventResource } },
    errors: [404, 409, 422],
    rawHandler,
  };
}

/**
 * Whose Idempotency-Key a report is: a member's, by the verified subject of their token, so a
 * retry with a refreshed token is the same caller's; otherwise the credential (a type's secret).
 */
async function reporterOf(context: AppContext, c: Context<AppEnv>): Promise<string> {
  const authorization = c.req.header('authorization');
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const authentication = c.var.tenant.authentication;
  if (token && authentication && unverifiedIssuer(token) === authentication.issuer) {
    const subject = await verifyUserToken(token, authentication, context.jwks).catch(() => undefined);
    if (subject !== undefined) return `user:${subject}`;
  }
  return callerOf(undefined, authorization);
}

/**
 * A retry that took over a dead report finds its event registered under the reserved id: that is
 * the answer, whatever checks the report would meet now (a type deactivated meanwhile, a token
 * expired). One still on its way is reported again under the same id, which registers once.
 */
async function registeredEventAnswer(
  context: AppContext,
  c: Context<AppEnv>,
  eventId: number,
): Promise<Response | undefined> {
  const event = await entityManager(c).findOne(
    Event,
    { tenant: c.var.tenant.id, id: eventId },
    { populate: ['type', 'user'] },
  );
  return event ? success(c, storedEventView(event, context.config.publicBaseUrl), 201) : undefined;
}

export function registerReportEvent(app: App, context: AppContext): void {
  defineRoute(app, context, reportEventDefinition(context, reportDependencies(context)));
}

/** The route's own middleware, as defineRoute mounts it (the benchmark's layers mount it over others). */
export function reportEventMiddleware(context: AppContext) {
  return routeMiddleware(
    context,
    reportEventDefinition(context, reportDependencies(context)),
  ) as unknown as RouteMiddleware;
}

/** Hono's overloads take a tuple, not an array: the body limit, the Idempotency-Key, the body. */
type RouteMiddleware = readonly [MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>];

/** The route's middleware and handler, over `dependencies` (the benchmark's layers mount it over others). */
export function reportEventRoute(context: AppContext, dependencies: ReportDependencies) {
  const definition = reportEventDefinition(context, dependencies);
  return [...(routeMiddleware(context, definition) as unknown as RouteMiddleware), routeHandler(definition)] as const;
}
