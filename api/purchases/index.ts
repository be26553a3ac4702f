import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreatePurchase } from './create-purchase.js';
import { registerListPurchases } from './list-purchases.js';

/** `/v1/purchases` (docs/rewards.md#purchases): buying rewards with points; a member's list is in api/users/. */
export function registerPurchaseRoutes(app: App, context: AppContext): void {
  registerCreatePurchase(app, context);
  registerListPurchases(app, context);
}
