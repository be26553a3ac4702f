import type { Handler } from 'hono';
import type { AppContext } from '../../shared/context.js';
import { acceptedEventAnswer } from '../../shared/events/event-view.js';
import { reportEvent, type ReportDependencies } from '../../shared/events/report-event.js';
import type { App, AppEnv } from '../app-env.js';
import { bodyLimit, EVENT_BODY_LIMIT } from '../middleware/body-limit.js';
import { idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody, type JsonInput } from '../validation/json-body.js';
import { EventResource, ReportEventBody } from './schema.js';

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
 * after the type is known, not by the authorize middleware.
 */
export function registerReportEvent(app: App, context: AppContext): void {
  app.post(
    '/v1/events',
    describe({
      summary: 'Report an event: answered as soon as it is queued; a worker registers it and grants its points',
      tags: ['Events'],
      access: { user: true },
      body: ReportEventBody,
      responses: { 201: { description: 'accepted', data: EventResource } },
      errors: [404, 409, 422],
    }),
    ...reportEventRoute(context, reportDependencies(context)),
  );
}

/**
 * The route's own middleware: the 300 kB limit, the Idempotency-Key, the body's schema. A key
 * reserves the event's id, so a retry after the first request died once its event was accepted
 * queues the same id again, which the worker registers once (issue 17).
 */
export function reportEventMiddleware(context: AppContext) {
  const reserveEventId = async () => String(await context.eventIds.allocate());
  return [bodyLimit(EVENT_BODY_LIMIT), idempotent(context, { reserve: reserveEventId }), jsonBody(ReportEventBody)] as const;
}

/** The route's middleware and handler, over `dependencies` (the benchmark's layers mount it over others). */
export function reportEventRoute(context: AppContext, dependencies: ReportDependencies) {
  const handler: Handler<AppEnv, string, JsonInput<typeof ReportEventBody>> = async (c) => {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const reservedId = c.get('reservedId');
    const event = await reportEvent(dependencies, c.get('tenant'), token, c.req.valid('json'), reservedId === undefined ? undefined : Number(reservedId));
    return c.body(acceptedEventAnswer(event, dependencies.serviceSubject), 201, { 'Content-Type': 'application/json' });
  };
  return [...reportEventMiddleware(context), handler] as const;
}
