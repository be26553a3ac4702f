import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { changeTenant } from '../../shared/tenant-admin/audited-tenant-changes.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { TenantResource } from '../../shared/tenants/tenant-view.js';
import { tags, TENANT_EXAMPLE, TenantChangesBody } from './schema.js';

export function registerUpdateTenant(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/tenant',
    operationId: 'updateTenant',
    description:
      'Changes the name, the user-token authentication (replaced whole) or the configuration (merged key by ' +
      'key: a key sent replaces its value, a key set to null is removed, keys not sent are kept). Every value is ' +
      'checked against the one configuration schema and an invalid one is 400 ValidationError naming the field. ' +
      'The change is audited as tenant.updated; this process applies it at once, other processes within the ' +
      'key cache lifetime (5 s by default).',
    examples: {
      request: { configuration: { rateLimit: { perSecond: 200, burst: 400 }, corsOrigins: null } },
      response: TENANT_EXAMPLE,
    },
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
