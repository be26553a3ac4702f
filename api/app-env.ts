import type { Hono } from 'hono';
import type { Principal } from '../shared/auth/principal.js';
import type { EntityManager } from '../shared/db/orm.js';
import type { Logger } from '../shared/logging/logger.js';
import type { Tenant } from '../shared/tenants/tenant.entity.js';

/** What middleware puts on every request's context for the handlers after it. */
export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    em: EntityManager;
    tenant: Tenant;
    principal: Principal | undefined;
  };
}

export type App = Hono<AppEnv>;
