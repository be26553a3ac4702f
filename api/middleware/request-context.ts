import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppContext } from '../../shared/context.js';
import { requestLogger, type AppEnv } from '../app-env.js';

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * First on every request: a request id (the caller's X-Request-Id when it is sane), stamped on
 * every line of the request's logger (`requestLogger`); the ORM, for `entityManager` to fork from
 * when a handler needs one; and the request's metrics and access log.
 */
export function requestContext(context: AppContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = process.hrtime.bigint();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    c.set('processLogger', context.logger);
    c.set('orm', context.orm);
    c.header('X-Request-Id', requestId);
    await next();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    // The route pattern, not the path, keeps the label set small (no ids in labels).
    const last = matchedRoutes(c).at(-1);
    const route = !last || last.method === 'ALL' ? 'unmatched' : last.path;
    const labels = { method: c.req.method, route, status: String(c.res.status) };
    context.metrics.httpRequests.inc(labels);
    context.metrics.httpDuration.observe(labels, seconds);
    if (context.logger.isLevelEnabled('info')) {
      requestLogger(c).info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(seconds * 1e4) / 10 }, 'request');
    }
  };
}
