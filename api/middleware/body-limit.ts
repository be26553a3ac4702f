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

/** Route limits above the default, by the route middleware that declares them (`routeBodyLimit`). */
const RAISED_LIMITS = new WeakMap<MiddlewareHandler, MiddlewareHandler>();

/**
 * A route's own limit (defineRoute's `bodyLimit`). One below DEFAULT_BODY_LIMIT is checked in the
 * route's chain. One above it cannot be: the /v1 limit runs first and would refuse what the route
 * admits. So the route's chain holds only a marker, and `defaultBodyLimit` applies the raised
 * limit in place of the default, before the API key as ever: a body over it is refused unread,
 * whoever sends it.
 */
export function routeBodyLimit(maxSize: number): MiddlewareHandler {
  const limit = bodyLimit(maxSize);
  if (maxSize <= DEFAULT_BODY_LIMIT) return limit;
  const applied: MiddlewareHandler = (_c, next) => next();
  RAISED_LIMITS.set(applied, limit);
  return applied;
}

/** The /v1 limit: DEFAULT_BODY_LIMIT, or the raised limit of the route the request is for. */
export function defaultBodyLimit(): MiddlewareHandler {
  const limit = bodyLimit(DEFAULT_BODY_LIMIT);
  return (c, next) => {
    for (const route of matchedRoutes(c)) {
      const raised = RAISED_LIMITS.get(route.handler as MiddlewareHandler);
      if (raised) return raised(c, next);
    }
    return limit(c, next);
  };
}
