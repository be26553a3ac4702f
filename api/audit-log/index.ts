import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerListAuditLog } from './list-audit-log.js';

export function registerAuditLogRoutes(app: App, context: AppContext): void {
  registerListAuditLog(app, context);
}
