import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import { PayloadTooLargeError } from '../../shared/platform/errors/app-errors.js';

/** 1 MB for every body but events' 300 kB and code uploads' 6 MB (docs/api-conventions.md#limits). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const EVENT_BODY_LIMIT = 300 * 1024;

/**
 * Refuses a body over `maxSize` before it is read. With a Content-Length (and no Transfer-Encoding)
 * the header decides: Node's HTTP parser never reads past it, so the body cannot be larger. Any
 * other body has no length up front: Hono's limiter counts it as it streams, so it is never
 * buffered whole. Hono's limiter makes the same header check, but only after touching the raw
 * body, which makes @hono/node-server build a full web Request: checking first spares the hot path.
 */
export function bodyLimit(maxSize: number): MiddlewareHandler {
  const tooLarge = () => {
    throw new PayloadTooLargeError(maxSize);
  };
  const streamingLimit = honoBodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return streamingLimit(c, next);
    if (Number(length) > maxSize) tooLarge();
    await next();
  };
}

/** Each route's own limit above the default, as its middleware: the /v1 limit leaves those routes to it. */
const LARGER_LIMITS = new WeakSet<MiddlewareHandler>();

/**
 * A route's own limit (defineRoute's `bodyLimit`). One above DEFAULT_BODY_LIMIT is marked, so that
 * `defaultBodyLimit` lets its requests through to it; it runs after the route's authorization,
 * so only a caller the route admits may send a body that large.
 */
export function routeBodyLimit(maxSize: number): MiddlewareHandler {
  const limit = bodyLimit(maxSize);
  if (maxSize > DEFAULT_BODY_LIMIT) LARGER_LIMITS.add(limit);
  return limit;
}

/**
 * DEFAULT_BODY_LIMIT on every /v1 request, except those to a route with a larger limit of its own
 * (`routeBodyLimit`), which checks it instead: the /v1 middleware runs first, and would otherwise
 * refuse what the route admits.
 */
export function defaultBodyLimit(): MiddlewareHandler {
  const limit = bodyLimit(DEFAULT_BODY_LIMIT);
  return (c, next) =>
    matchedRoutes(c).some((route) => LARGER_LIMITS.has(route.handler as MiddlewareHandler)) ? next() : limit(c, next);
}
