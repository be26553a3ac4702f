import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { PayloadTooLargeError } from '../../shared/errors/app-errors.js';

/** 1 MB for every body but events' 300 kB (decisions.md §3). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const EVENT_BODY_LIMIT = 300 * 1024;

/**
 * Hono's limiter refuses on Content-Length before reading, and counts a chunked body as it
 * streams, so an oversized body is never buffered whole.
 */
export function bodyLimit(maxSize: number): MiddlewareHandler {
  return honoBodyLimit({
    maxSize,
    onError: () => {
      throw new PayloadTooLargeError(maxSize);
    },
  });
}
