import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { tenantAllowsOrigin, type CorsOrigins } from '../../shared/tenants/cors-origins.js';
import type { AppEnv } from '../app-env.js';

/** What a browser's script may read of an answer besides the basics: lists, limits, ids, where a record went. */
export const EXPOSED_HEADERS = [
  'Content-Range',
  'Location',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Idempotent-Replayed',
];
const ALLOWED_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Api-Key', 'X-Request-Id'];
/** How long a browser may reuse a preflight's answer: a removed origin stops working within this. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * docs/api-conventions.md#browsers: a preflight (`OPTIONS` with `Access-Control-Request-Method`)
 * is answered here, before the API key is asked for, since a browser sends none with it. It names
 * no tenant, so it succeeds for an origin that some tenant allows (CorsOrigins); an origin no
 * tenant allows gets 204 with no CORS header, which the browser reads as a refusal. Whether the
 * request itself may be read is decided by its key's tenant (`tenantCors`).
 */
export function corsPreflight(origins: CorsOrigins): MiddlewareHandler<AppEnv> {
  const allow = cors({
    origin: (origin) => origin,
    allowMethods: ALLOWED_METHODS,
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  });
  return async (c, next) => {
    if (c.req.method !== 'OPTIONS' || !c.req.header('access-control-request-method')) return next();
    const origin = c.req.header('origin');
    if (origin && (await origins.allowedByAnyTenant(origin))) return allow(c, next);
    c.header('Vary', 'Origin');
    return c.body(null, 204);
  };
}

/**
 * After the API key: `Access-Control-Allow-Origin` only for an origin the key's tenant lists in
 * `configuration.corsOrigins`, so one tenant's site cannot read answers given to another's key.
 * Errors thrown further on (a 429, a 400) carry it too, so the script can read why.
 */
export function tenantCors(): MiddlewareHandler<AppEnv> {
  const allow = cors({
    origin: (origin, c) => (tenantAllowsOrigin(c.get('tenant').configuration, origin) ? origin : null),
    exposeHeaders: EXPOSED_HEADERS,
  });
  return async (c, next) => (c.req.header('origin') ? allow(c, next) : next());
}
