import type { AppContext } from '../../shared/context.js';
import { Order } from '../../shared/orders/order.entity.js';
import { orderView } from '../../shared/orders/order-service.js';
import { findTenantRecord } from '../../shared/platform/db/tenant-record.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import { registerPlaceOrder } from './place-order.js';
import { access, ORDER_EXAMPLE, ORDER_LIST, OrderIdParams, OrderResource, tags } from './schema.js';

/** Point-of-sale orders (docs/receipts.md#orders). */
export function registerOrderRoutes(app: App, context: AppContext): void {
  const orders = collectionRoutes(app, context, {
    path: '/v1/orders',
    noun: 'order',
    entity: Order,
    resource: OrderResource,
    view: orderView,
    example: ORDER_EXAMPLE,
    params: OrderIdParams,
    tags,
    access,
  });
  registerPlaceOrder(app, context);
  // An order shows its submitter's id.
  const populate = ['submitter'];
  orders.list({ description: 'The orders recorded.', spec: ORDER_LIST, populate });
  orders.get({
    description: 'One order, with the id of the event it reported.',
    find: (em, tenantId, id) => findTenantRecord(em, Order, tenantId, id, 'order', populate),
  });
}
