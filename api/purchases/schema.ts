import { Type } from 'typebox';

export const tags = ['Purchases'];

export const CreatePurchaseBody = Type.Object(
  {
    resource: Type.Object(
      {
        type: Type.Union([Type.Literal('REWARD'), Type.Literal('PARTNER1_PRODUCT'), Type.Literal('PARTNER2_PRODUCT')], {
          description: "REWARD for a VOUCHER reward; a partner product's own type",
        }),
        id: Type.String({ minLength: 1, maxLength: 64, description: "The reward's id" }),
      },
      { additionalProperties: false },
    ),
    subject: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Integer({ minimum: 1 })], {
        description: 'With an admin token: the member buying (its id, authIdentifier or account number)',
      }),
    ),
  },
  { additionalProperties: false, title: 'CreatePurchaseBody' },
);

const Base = {
  id: Type.String({ format: 'uuid' }),
  user: Type.Object({ id: Type.String({ format: 'uuid' }) }),
  resource: Type.Object({ type: Type.String(), id: Type.String({ format: 'uuid' }) }),
  points: Type.Integer(),
};

export const PurchaseResource = Type.Union(
  [
    Type.Object(
      {
        ...Base,
        benefit: Type.Object({ type: Type.Literal('VOUCHER'), id: Type.String({ format: 'uuid' }) }),
        completedAt: Type.String({ format: 'date-time' }),
      },
      { title: 'VoucherPurchase' },
    ),
    Type.Object(
      {
        ...Base,
        benefit: Type.Object({
          type: Type.Union([Type.Literal('PARTNER1_PRODUCT'), Type.Literal('PARTNER2_PRODUCT')]),
          id: Type.String({ format: 'uuid', description: 'The order, which is the purchase' }),
        }),
        orderId: Type.String({ format: 'uuid' }),
        registeredAt: Type.String({ format: 'date-time' }),
        status: Type.Union([Type.Literal('PENDING'), Type.Literal('CONFIRMED'), Type.Literal('REFUNDED')], {
          description: 'PENDING until the partner confirms (CONFIRMED) or refuses for good (REFUNDED)',
        }),
        partnerReference: Type.Union([Type.String(), Type.Null()], {
          description: "The partner's own reference for the order, once it gave one",
        }),
        delayed: Type.Optional(
          Type.Boolean({ description: 'PARTNER2 only: true while the partner has not confirmed the order' }),
        ),
      },
      { title: 'PartnerPurchase' },
    ),
  ],
  { title: 'Purchase' },
);

export const PARTNER_PURCHASE_EXAMPLE = {
  id: '9b2f6c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d',
  user: { id: '0c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f' },
  resource: { type: 'PARTNER2_PRODUCT', id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d' },
  points: 500,
  benefit: { type: 'PARTNER2_PRODUCT', id: '9b2f6c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d' },
  orderId: '9b2f6c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d',
  registeredAt: '2026-11-26T10:15:00.000Z',
  status: 'PENDING',
  partnerReference: null,
  delayed: true,
};
