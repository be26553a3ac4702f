import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { changeTenant } from '../../shared/tenants/audited-tenant-changes.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { tags, TenantChangesBody, TenantResource } from './schema.js';

export function registerUpdateTenant(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/tenant',
    summary:
      "Change the tenant's name, user-token authentication or configuration (merged key by key; null removes a key); audited",
    tags,
    access: { admin: 'admin:tenant' },
    body: TenantChangesBody,
    responses: { 200: { description: 'the changed tenant', data: TenantResource } },
    handler: ({ body }, c) =>
      changeTenant(context, entityManager(c), actorOf(c.var.principal), { id: c.var.tenant.id }, body),
  });
}
