import type { AppContext } from '../../shared/context.js';
import { findTenantRecord } from '../../shared/platform/db/tenant-record.js';
import { Order } from '../../shared/orders/order.entity.js';
import { orderView } from '../../shared/orders/order-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, OrderIdParams, OrderResource, tags } from './schema.js';

export function registerGetOrder(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/orders/:id',
    operationId: 'getOrder',
    description: 'One order, with the id of the event it reported.',
    examples: {
      response: {
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
    },
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
