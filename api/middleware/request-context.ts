import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Histogram } from 'prom-client';
import type { AppContext } from '../../shared/context.js';
import { requestLogger, type AppEnv } from '../app-env.js';
import { setResponseHeader } from './response-header.js';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/** The operator routes (api/operations/): probes and scrapes come every few seconds, so they log at debug. */
const PROBE_ROUTES: ReadonlySet<string> = new Set(['/health', '/ready', '/metrics']);

/**
 * First on every request: a request id (the caller's X-Request-Id when it is sane), stamped on
 * every line of the request's logger (`requestLogger`); the ORM, for `entityManager` to fork from
 * when a handler needs one; and the request's metrics and access log.
 */
export function requestContext(context: AppContext): MiddlewareHandler<AppEnv> {
  // One histogram child per (method, route, status), found by a plain string key: prom-client
  // would otherwise hash the label object on every request.
  const children = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  const durationOf = (method: string, route: string, status: number) => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = context.metrics.httpDuration.labels({ method, route, status: String(status) });
      children.set(key, child);
    }
    return child;
  };
  return async (c, next) => {
    const started = process.hrtime.bigint();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    c.set('processLogger', context.logger);
    c.set('orm', context.orm);
    setResponseHeader(c, 'X-Request-Id', requestId);
    // Every answer is JSON (or the /docs page, which has its own headers): never sniffed as anything else.
    setResponseHeader(c, 'X-Content-Type-Options', 'nosniff');
    await next();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = routeTemplate(c);
    durationOf(c.req.method, route, c.res.status).observe(seconds);
    // Probes and scrapes come every few seconds: at debug, unless one fails (docs/operations.md#logs).
    const level = PROBE_ROUTES.has(route) && c.res.status < 400 ? 'debug' : 'info';
    if (context.logger.isLevelEnabled(level)) {
      requestLogger(c)[level](
        { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(seconds * 1e4) / 10 },
        'request',
      );
    }
  };
}

/**
 * The template of the route that took the request, as the metrics label it (`/v1/events/:id/reactions`:
 * no ids in labels, and no regexp constraints, which are how a route is written, not what it is).
 * The route is the endpoint Hono dispatched to, or, when a middleware answered first (a missing API
 * key, a rate limit), the endpoint it stood before. `unmatched` only when no endpoint matched: a 404
 * of the router, not a 404 of a route that found no record.
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  const answered = routes[c.req.routeIndex];
  // Middleware is mounted with app.use, whose method is ALL; every endpoint is declared with its method.
  const endpoint = answered && answered.method !== 'ALL' ? answered : routes.find((route) => route.method !== 'ALL');
  return endpoint ? withoutConstraints(endpoint.path) : 'unmatched';
}

/** `:id{[0-9]+}` → `:id`; a constraint may hold one level of braces (`{[0-9]{1,3}}`). */
function withoutConstraints(path: string): string {
  return path.replace(/(:\w+)\{(?:[^{}]|\{[^{}]*\})*\}/g, '$1');
}
