import type { AppContext } from '../../shared/context.js';
import { findTenant } from '../../shared/tenants/tenant-lookup.js';
import { tenantView } from '../../shared/tenants/tenant-view.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { TenantResource } from '../../shared/tenants/tenant-view.js';
import { tags, TENANT_EXAMPLE } from './schema.js';

export function registerGetTenant(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/tenant',
    operationId: 'getTenant',
    description:
      "The tenant the API key belongs to: its name, how members' user tokens are verified (never the shared " +
      'key) and its configuration, read from the database so a change made anywhere shows at once.',
    examples: { response: TENANT_EXAMPLE },
    summary:
      "Read the API key's tenant: its name, user-token authentication (without the shared key) and configuration",
    tags,
    access: { admin: 'admin:tenant' },
    responses: { 200: { description: 'the tenant', data: TenantResource } },
    // Read from PostgreSQL, not the key cache: a change just made on another process shows at once.
    handler: async (_input, c) => tenantView(await findTenant(entityManager(c), { id: c.var.tenant.id })),
  });
}
