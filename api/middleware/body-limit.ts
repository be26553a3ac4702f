import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { PayloadTooLargeError } from '../../shared/platform/errors/app-errors.js';

/** 1 MB for every body but events' 300 kB (docs/api-conventions.md#limits). */
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
