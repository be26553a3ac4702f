import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreatePointsAdjustment } from './create-points-adjustment.js';
import { registerListPointsHistory } from './list-points-history.js';

/** A member's points over time (docs/points.md): the history that names each entry's cause, and admins' adjustments. */
export function registerPointsRoutes(app: App, context: AppContext): void {
  registerListPointsHistory(app, context);
  registerCreatePointsAdjustment(app, context);
}
