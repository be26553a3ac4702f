import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerBulkAdjustments } from './bulk-adjustments.js';

/** Admins' changes to members' points (docs/points.md#bulk-adjustments). */
export function registerPointsRoutes(app: App, context: AppContext): void {
  registerBulkAdjustments(app, context);
}
