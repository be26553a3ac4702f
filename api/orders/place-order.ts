import type { AppContext } from '../../shared/context.js';
import { Order } from '../../shared/orders/order.entity.js';
import { orderView, placeOrder, reportOrderPlaced, type OrderDependencies } from '../../shared/orders/order-service.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { answer, success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ORDER_EXAMPLE, OrderResource, PlaceOrderBody, tags } from './schema.js';

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
    operationId: 'placeOrder',
    description:
      'Records a point-of-sale order and reports it as an `ORDER_PLACED` event for its `submitter`, whose reactors may grant points (read them with `GET /v1/events/{eventId}/reactions`). The fields are closed so no personal data rides along. The same `transactionId` at the same `locationId` again, with the same body, answers the first order with 200 rather than recording it twice; with another body it is 409 ConflictError naming the fields that differ in `data.fields`.',
    examples: {
      request: {
        transactionId: ORDER_EXAMPLE.transactionId,
        total: ORDER_EXAMPLE.total,
        subtotal: ORDER_EXAMPLE.subtotal,
        currency: ORDER_EXAMPLE.currency,
        locationId: ORDER_EXAMPLE.locationId,
        cashierId: ORDER_EXAMPLE.cashierId,
        lineItems: ORDER_EXAMPLE.lineItems,
        occurredAt: ORDER_EXAMPLE.occurredAt,
        submitter: ORDER_EXAMPLE.submitter,
      },
      response: ORDER_EXAMPLE,
    },
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
