import type { AppContext } from '../../shared/context.js';
import { findTenantRecord } from '../../shared/platform/db/tenant-record.js';
import { Order } from '../../shared/orders/order.entity.js';
import { orderView } from '../../shared/orders/order-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ORDER_EXAMPLE, OrderIdParams, OrderResource, tags } from './schema.js';

export function registerGetOrder(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/orders/:id',
    operationId: 'getOrder',
    description: 'One order, with the id of the event it reported.',
    examples: { response: ORDER_EXAMPLE },
    summary: 'Read an order',
    tags,
    access,
    params: OrderIdParams,
    responses: { 200: { description: 'the order', data: OrderResource } },
    errors: [404],
    handler: async ({ params }, c) =>
      orderView(await findTenantRecord(entityManager(c), Order, c.var.tenant.id, params.id, 'order', ['submitter'])),
  });
}
