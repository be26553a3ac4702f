import type { Context, Hono } from 'hono';
import { actorOf } from '../shared/audit/audit-log.js';
import type { ChangedBy } from '../shared/audit/audited-resource-change.js';
import type { Principal } from '../shared/platform/auth/principal.js';
import type { EntityManager, Orm } from '../shared/platform/db/orm.js';
import type { Logger } from '../shared/platform/logging/logger.js';
import type { Tenant } from '../shared/tenants/tenant.entity.js';

/** What middleware puts on every request's context for the handlers after it. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The process's logger; the request's own child comes from `requestLogger(c)`. */
    processLogger: Logger;
    logger: Logger | undefined;
    orm: Orm;
    /** The request's own EntityManager once it has one: read it through `entityManager(c)`. */
    em: EntityManager | undefined;
    tenant: Tenant;
    principal: Principal | undefined;
    /** The id an Idempotency-Key reserved for what this request creates (api/middleware/idempotency.ts), when the route asked for one. */
    reservedId: string | undefined;
  };
}

export type App = Hono<AppEnv>;

/**
 * The request's logger, every line stamped with its request id (and tenant, once known), made on
 * first use: a request that logs nothing (POST /v1/events below `info`) skips the child logger,
 * whose bindings pino serialises and redacts up front.
 */
export function requestLogger(c: Context<AppEnv>): Logger {
  let logger = c.get('logger');
  if (!logger) {
    const tenant = c.get('tenant') as Tenant | undefined;
    logger = c
      .get('processLogger')
      .child({ requestId: c.get('requestId'), ...(tenant ? { tenantId: tenant.id } : {}) });
    c.set('logger', logger);
  }
  return logger;
}

/**
 * The request's EntityManager, forked on first use: requests that never touch the ORM (POST
 * /v1/events, the hot path) do not pay for a fork, which profiling showed costs them ~6% of CPU.
 */
export function entityManager(c: Context<AppEnv>): EntityManager {
  let em = c.get('em');
  if (!em) {
    em = c.get('orm').em.fork();
    c.set('em', em);
  }
  return em;
}

/** Who makes the request's change, for the audit log: the admin token, or nobody audited (a member's own change). */
export function changedBy(c: Context<AppEnv>): ChangedBy {
  const principal = c.get('principal');
  return { tenantId: c.get('tenant').id, actor: principal?.kind === 'admin' ? actorOf(principal) : null };
}
