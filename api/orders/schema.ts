import { Type } from 'typebox';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { uuidPath } from '../routes/request-input.js';
import { MemberReferenceBody } from '../users/schema.js';

const Money = Type.Number({ minimum: 0, maximum: 1e9 });
const Code = Type.String({ minLength: 1, maxLength: 128 });

/**
 * A line item (docs/receipts.md#records), without its free-form `metadata`: an order carries no field where
 * personal data could ride along (docs/receipts.md#orders).
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
  { additionalProperties: false, title: 'OrderLineItem' },
);

/** docs/receipts.md#orders: these fields and no other, so personal data (a name, an email) cannot be smuggled in. */
export const PlaceOrderBody = Type.Object(
  {
    transactionId: Code,
    total: Money,
    subtotal: Type.Optional(Money),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' })),
    locationId: Code,
    cashierId: Type.Optional(Code),
    lineItems: Type.Array(OrderLineItem, { maxItems: 500 }),
    occurredAt: Type.Optional(Type.String({ format: 'date-time' })),
    submitter: Type.Optional(
      MemberReferenceBody(
        'OrderSubmitter',
        'The member who bought, left out for a customer who is not one; the order shows its `authIdentifier`',
      ),
    ),
  },
  { additionalProperties: false, title: 'PlaceOrderBody' },
);

export const OrderResource = Type.Object(
  {
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
    eventId: Type.Union([
      Type.Integer({ description: 'the ORDER_PLACED event: GET /v1/events/{eventId}/reactions shows its points' }),
      Type.Null(),
    ]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Order' },
);

export const ORDER_LIST: ListSpec = {
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

export const access = { admin: 'admin:orders' } as const;
export const tags = ['Orders'];

/** An order as the examples show it: placed, read and listed. */
export const ORDER_EXAMPLE = {
  id: '8f9a0b1c-2d3e-4f5a-8b6c-7d8e9f0a1b2c',
  transactionId: 'T-20260201-0042',
  locationId: 'STORE-12',
  cashierId: 'C-7',
  total: 42.5,
  subtotal: 35.42,
  currency: 'EUR',
  lineItems: [
    { quantity: 2, description: 'Espresso beans 1 kg', identifier: 'SKU-1001', unitPrice: 18.9, totalPrice: 37.8 },
  ],
  occurredAt: '2026-02-01T11:58:00.000Z',
  submitter: { authIdentifier: 'member-17' },
  eventId: 1043,
  createdAt: '2026-02-01T12:00:00.000Z',
};

export const OrderIdParams = uuidPath({ id: { description: "The order's id", example: ORDER_EXAMPLE.id } });
