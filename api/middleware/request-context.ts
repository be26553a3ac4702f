import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Histogram } from 'prom-client';
import type { AppContext } from '../../shared/context.js';
import { requestLogger, type AppEnv } from '../app-env.js';
import { setResponseHeader } from './response-header.js';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

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
    // The route pattern, not the path, keeps the label set small (no ids in labels).
    const last = matchedRoutes(c).at(-1);
    const route = !last || last.method === 'ALL' ? 'unmatched' : last.path;
    durationOf(c.req.method, route, c.res.status).observe(seconds);
    if (context.logger.isLevelEnabled('info')) {
      requestLogger(c).info(
        { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(seconds * 1e4) / 10 },
        'request',
      );
    }
  };
}
