import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Order } from '../../shared/orders/order.entity.js';
import { orderView } from '../../shared/orders/order-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ORDER_EXAMPLE, ORDER_LIST, OrderResource, tags } from './schema.js';

export function registerListOrders(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/orders',
    operationId: 'listOrders',
    description:
      'The orders recorded. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.',
    examples: { response: [ORDER_EXAMPLE] },
    summary: 'List orders',
    tags,
    access,
    query: listQuery(ORDER_LIST),
    responses: { 200: { description: 'a page of orders', data: Type.Array(OrderResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Order, ORDER_LIST, query, orderView, { populate: ['submitter'] }),
  });
}
