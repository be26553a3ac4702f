import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppContext } from '../../shared/context.js';
import { InvalidApiKeyError, TooManyRequestsError } from '../../shared/platform/errors/app-errors.js';
import type { FailedKeyAttempts } from '../../shared/platform/rate-limit/failed-key-attempts.js';
import type { AppEnv } from '../app-env.js';

/**
 * `X-Api-Key` names the tenant on every /v1 request; missing or unknown is 403 (docs/api-conventions.md#authentication).
 * Failures are counted per client address (`FailedKeyAttempts`): one that keeps failing is 429
 * instead, so guessing keys goes slowly and learns nothing. A valid key is never refused, so a
 * tenant behind the same address (a NAT, a proxy) as someone guessing keeps working. A disabled
 * tenant's key is refused too (docs/tenant.md#disabling).
 */
export function apiKey(context: AppContext, failedAttempts: FailedKeyAttempts): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('x-api-key');
    const tenant = key ? await context.tenants.findByApiKey(key) : undefined;
    if (!tenant) {
      const address = clientAddress(c);
      const retryAfter =
        address === undefined ? 0 : failedAttempts.blockedFor(address) || (await failedAttempts.fail(address));
      if (retryAfter > 0) throw new TooManyRequestsError(retryAfter, {});
      throw new InvalidApiKeyError(key ? 'Invalid API key' : 'Missing X-Api-Key header');
    }
    // A disabled tenant's own key, not a guess: refused without counting as a failed attempt.
    if (tenant.disabledAt) throw new InvalidApiKeyError('This tenant is disabled');
    c.set('tenant', tenant);
    // A request logger made before the tenant was known gains it now; one made later starts with it.
    c.get('logger')?.setBindings({ tenantId: tenant.id });
    await next();
  };
}

/** The peer's address; none where no socket stands behind the request (`app.request` in tests and tools), which is not limited. */
function clientAddress(c: Context<AppEnv>): string | undefined {
  return (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
}
