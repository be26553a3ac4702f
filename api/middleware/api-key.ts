import type { MiddlewareHandler } from 'hono';
import type { AppContext } from '../../shared/context.js';
import { InvalidApiKeyError } from '../../shared/errors/app-errors.js';
import type { AppEnv } from '../app-env.js';

/** `X-Api-Key` names the tenant on every /v1 request; missing or unknown is 403 (decisions.md §2). */
export function apiKey(context: AppContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('x-api-key');
    const tenant = key ? await context.tenants.findByApiKey(key) : undefined;
    if (!tenant) throw new InvalidApiKeyError(key ? 'Invalid API key' : 'Missing X-Api-Key header');
    c.set('tenant', tenant);
    // A request logger made before the tenant was known gains it now; one made later starts with it.
    c.get('logger')?.setBindings({ tenantId: tenant.id });
    await next();
  };
}
