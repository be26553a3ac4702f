import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreatePurchase } from './create-purchase.js';

/** `/v1/purchases` (docs/rewards.md#purchases): members buy rewards with points. */
export function registerPurchaseRoutes(app: App, context: AppContext): void {
  registerCreatePurchase(app, context);
}
