import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { findTenantRecord } from '../../shared/platform/db/tenant-record.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { Order } from '../../shared/orders/order.entity.js';
import { orderView, placeOrder, type OrderDependencies } from '../../shared/orders/order-service.js';
import { entityManager, type App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecord, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';

const Money = Type.Number({ minimum: 0, maximum: 1e9 });
const Code = Type.String({ minLength: 1, maxLength: 128 });

/**
 * receipts-interface.md, Line item, without its free-form `metadata`: an order carries no field where
 * personal data could ride along (decisions.md §9).
 */
const OrderLineItem = Type.Object(
  {
    quantity: Type.Optional(Type.Number({ minimum: 0 })),
    description: Type.Optional(Type.String({ maxLength: 512 })),
    identifier: Type.Optional(Code),
    unit: Type.Optional(Type.String({ maxLength: 32 })),
    unitPrice: Type.Optional(Type.Number()),
    totalPrice: Type.Optional(Type.Number()),
    productId: Type.Optional(Code),
  },
  { additionalProperties: false },
);

/** decisions.md §9: these fields and no other, so personal data (a name, an email) cannot be smuggled in. */
const PlaceOrderBody = Type.Object(
  {
    transactionId: Code,
    total: Money,
    subtotal: Type.Optional(Money),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' })),
    locationId: Code,
    cashierId: Type.Optional(Code),
    lineItems: Type.Array(OrderLineItem, { maxItems: 500 }),
    occurredAt: Type.Optional(Type.String({ format: 'date-time' })),
    submitter: Type.Optional(Type.Object({ authIdentifier: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

const OrderResource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  transactionId: Type.String(),
  locationId: Type.String(),
  cashierId: Type.Union([Type.String(), Type.Null()]),
  total: Type.Number(),
  subtotal: Type.Union([Type.Number(), Type.Null()]),
  currency: Type.Union([Type.String(), Type.Null()]),
  lineItems: Type.Array(OrderLineItem),
  occurredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  submitter: Type.Union([Type.Object({ authIdentifier: Type.String() }), Type.Null()]),
  eventId: Type.Union([Type.Integer({ description: 'the ORDER_PLACED event: GET /v1/events/{eventId}/reactions shows its points' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});

const ORDER_LIST: ListSpec = {
  resource: 'order',
  defaultSort: 'createdAt',
  fields: {
    transactionId: { type: 'string', filterable: true },
    locationId: { type: 'string', filterable: true, sortable: true },
    cashierId: { type: 'string', filterable: true },
    total: { type: 'number', filterable: true, sortable: true },
    occurredAt: { type: 'datetime', filterable: true, sortable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

const access = { admin: 'admin:orders' } as const;
const tags = ['Orders'];

/** Point-of-sale orders (rewards-interface.md, Point-of-sale integration; decisions.md §9). */
export function registerOrderRoutes(app: App, context: AppContext): void {
  const dependencies: OrderDependencies = {
    eventTypes: context.eventTypes,
    eventQueue: context.eventQueue,
    eventIds: context.eventIds,
    products: context.products,
  };
  app.post(
    '/v1/orders',
    describe({
      summary: 'Submit a point-of-sale order: reports ORDER_PLACED; the same transactionId at the same locationId again answers the first order',
      tags,
      access,
      body: PlaceOrderBody,
      responses: { 201: { description: 'the new order', data: OrderResource }, 200: { description: 'the order already submitted for this transaction', data: OrderResource } },
      errors: [404, 422],
    }),
    authorize(context, access),
    // The same transaction answers its first order anyway; a key also gives a retry the first 201.
    idempotent(
      context,
      createsRecord(async (c, id) => {
        const order = await entityManager(c).findOne(Order, { tenant: c.var.tenant.id, id }, { populate: ['submitter'] });
        return order ? c.json({ status: 'success', data: orderView(order) }, 201) : undefined;
      }),
    ),
    jsonBody(PlaceOrderBody),
    async (c) => {
      const { order, created } = await placeOrder(entityManager(c), dependencies, c.var.tenant.id, c.req.valid('json'), c.var.reservedId);
      return c.json({ status: 'success', data: orderView(order) }, created ? 201 : 200);
    },
  );
  app.get(
    '/v1/orders',
    describe({ summary: 'List orders', tags, access, parameters: listParameters(ORDER_LIST), responses: { 200: { description: 'a page of orders', data: Type.Array(OrderResource) } }, errors: [400] }),
    authorize(context, access),
    (c) => listResponse(c, Order, ORDER_LIST, orderView, { populate: ['submitter'] }),
  );
  app.get(
    '/v1/orders/:id',
    describe({ summary: 'Read an order', tags, access, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }], responses: { 200: { description: 'the order', data: OrderResource } }, errors: [404] }),
    authorize(context, access),
    async (c) => {
      const order = await findTenantRecord(entityManager(c), Order, c.var.tenant.id, c.req.param('id'), 'order', ['submitter']);
      return c.json({ status: 'success', data: orderView(order) });
    },
  );
}
