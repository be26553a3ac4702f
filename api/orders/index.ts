import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerGetOrder } from './get-order.js';
import { registerListOrders } from './list-orders.js';
import { registerPlaceOrder } from './place-order.js';

/** Point-of-sale orders (docs/receipts.md#orders). */
export function registerOrderRoutes(app: App, context: AppContext): void {
  registerPlaceOrder(app, context);
  registerListOrders(app, context);
  registerGetOrder(app, context);
}
