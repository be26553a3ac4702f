import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Order } from '../../shared/orders/order.entity.js';
import { orderView } from '../../shared/orders/order-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ORDER_LIST, OrderResource, tags } from './schema.js';

export function registerListOrders(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/orders',
    operationId: 'listOrders',
    description:
      'The orders recorded. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.',
    examples: {
      response: [
        {
          id: '8f9a0b1c-2d3e-4f5a-8b6c-7d8e9f0a1b2c',
          transactionId: 'T-20260201-0042',
          locationId: 'STORE-12',
          cashierId: 'C-7',
          total: 42.5,
          subtotal: 35.42,
          currency: 'EUR',
          lineItems: [
            {
              quantity: 2,
              description: 'Espresso beans 1 kg',
              identifier: 'SKU-1001',
              unitPrice: 18.9,
              totalPrice: 37.8,
            },
          ],
          occurredAt: '2026-02-01T11:58:00.000Z',
          submitter: { authIdentifier: 'member-17' },
          eventId: 1043,
          createdAt: '2026-02-01T12:00:00.000Z',
        },
      ],
    },
    summary: 'List orders',
    tags,
    access,
    query: listQuery(ORDER_LIST),
    responses: { 200: { description: 'a page of orders', data: Type.Array(OrderResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Order, ORDER_LIST, query, orderView, { populate: ['submitter'] }),
  });
}
