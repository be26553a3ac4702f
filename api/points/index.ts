import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerBulkAdjustments } from './bulk-adjustments.js';
import { registerCreatePointsAdjustment } from './create-points-adjustment.js';
import { registerListPointsHistory } from './list-points-history.js';

/**
 * A member's points over time (docs/points.md): the history that names each entry's cause, and
 * admins' adjustments, one at a time or in bulk.
 */
export function registerPointsRoutes(app: App, context: AppContext): void {
  registerListPointsHistory(app, context);
  registerCreatePointsAdjustment(app, context);
  registerBulkAdjustments(app, context);
}
