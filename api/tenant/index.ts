import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerGetTenant } from './get-tenant.js';
import { registerUpdateTenant } from './update-tenant.js';

/** docs/tenant.md: the API key's own tenant, read and changed by its admins. */
export function registerTenantRoutes(app: App, context: AppContext): void {
  registerGetTenant(app, context);
  registerUpdateTenant(app, context);
}
