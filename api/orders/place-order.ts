import type { AppContext } from '../../shared/context.js';
import { Order } from '../../shared/orders/order.entity.js';
import { orderView, placeOrder, reportOrderPlaced, type OrderDependencies } from '../../shared/orders/order-service.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { answer, success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { access, OrderResource, PlaceOrderBody, tags } from './schema.js';

/** Point-of-sale orders (docs/receipts.md#orders). */
export function registerPlaceOrder(app: App, context: AppContext): void {
  const dependencies: OrderDependencies = {
    eventTypes: context.eventTypes,
    eventQueue: context.eventQueue,
    eventIds: context.eventIds,
    products: context.products,
  };
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/orders',
    summary:
      'Submit a point-of-sale order: reports ORDER_PLACED; the same order again (same transactionId and locationId, same body) answers the first order, another body under that pair is 409 naming the differing fields in data.fields',
    tags,
    access,
    // The same transaction answers its first order anyway; a key also gives a retry the first 201.
    // The first request may have died before queueing ORDER_PLACED: queued again under the order's
    // event id, which registers once, it is not left to the recovery sweep.
    idempotency: createsRecord(async (c, id) => {
      const order = await entityManager(c).findOne(Order, { tenant: c.var.tenant.id, id }, { populate: ['submitter'] });
      if (!order) return undefined;
      await reportOrderPlaced(dependencies, c.var.tenant.id, order);
      return success(c, orderView(order), 201);
    }),
    body: PlaceOrderBody,
    responses: {
      201: { description: 'the new order', data: OrderResource },
      200: { description: 'the order already submitted for this transaction', data: OrderResource },
    },
    errors: [404, 409, 422],
    handler: async ({ body }, c) => {
      const { order, created } = await placeOrder(
        entityManager(c),
        dependencies,
        c.var.tenant.id,
        body,
        c.var.reservedId,
      );
      return answer(orderView(order), { status: created ? 201 : 200 });
    },
  });
}
