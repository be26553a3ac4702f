import type { MiddlewareHandler } from 'hono';
import { TooManyRequestsError } from '../../shared/platform/errors/app-errors.js';
import { tenantRateLimit, type TokenBuckets } from '../../shared/platform/rate-limit/token-bucket.js';
import type { AppEnv } from '../app-env.js';
import { setResponseHeader } from './response-header.js';

/**
 * A token bucket per API key (docs/api-conventions.md#rate-limits), after the key is known. Every answer carries the
 * IETF RateLimit-* headers; a refusal is 429 TooManyRequestsError with Retry-After.
 */
export function rateLimit(buckets: TokenBuckets): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const tenant = c.get('tenant');
    const result = await buckets.take(tenant.apiKeyPrefix, tenantRateLimit(tenant.configuration));
    const headers = {
      'RateLimit-Limit': String(result.limit),
      'RateLimit-Remaining': String(result.remaining),
      'RateLimit-Reset': String(result.resetSeconds),
    };
    if (!result.allowed) throw new TooManyRequestsError(result.resetSeconds, headers);
    for (const [name, value] of Object.entries(headers)) setResponseHeader(c, name, value);
    await next();
  };
}
