import { Type, type Static } from 'typebox';
import { literalUnion, stringEnum } from '../platform/validation/literal-union.js';
import { PURCHASE_RESOURCE_TYPES } from './purchase.entity.js';

// A purchase as POST /v1/purchases and the purchase lists answer it (docs/rewards.md#purchases,
// docs/rewards.md#partner-products); purchase-service.ts builds them.

/** The rewards bought from a partner rather than given as a voucher (docs/rewards.md#partner-products). */
export const PARTNER_PRODUCT_TYPES = ['PARTNER1_PRODUCT', 'PARTNER2_PRODUCT'] as const;

const ResourceType = stringEnum(PURCHASE_RESOURCE_TYPES);
const Common = {
  id: Type.String({ format: 'uuid' }),
  user: Type.Object({ id: Type.String({ format: 'uuid' }) }, { description: 'the member who bought it' }),
  points: Type.Integer({ description: 'the price paid, spent from the balance' }),
};
const VoucherFields = {
  benefit: Type.Object(
    { type: Type.Literal('VOUCHER'), id: Type.String({ format: 'uuid', description: "the voucher's id" }) },
    { description: 'what the member got' },
  ),
  completedAt: Type.String({ format: 'date-time' }),
};
const PartnerFields = {
  benefit: Type.Object(
    {
      type: literalUnion(PARTNER_PRODUCT_TYPES),
      id: Type.String({ format: 'uuid', description: 'the order, which is the purchase' }),
    },
    { description: 'what the member got' },
  ),
  orderId: Type.String({ format: 'uuid', description: 'the order placed with the partner: the purchase id' }),
  registeredAt: Type.String({ format: 'date-time' }),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('CONFIRMED'), Type.Literal('REFUNDED')], {
    description: 'PENDING until the partner confirms (CONFIRMED) or refuses for good (REFUNDED, the points given back)',
  }),
  partnerReference: Type.Union([Type.String(), Type.Null()], {
    description: "the partner's own reference for the order, once it gave one",
  }),
  delayed: Type.Optional(
    Type.Boolean({ description: 'PARTNER2 only: true while the partner has not confirmed the order' }),
  ),
};
const Resource = Type.Object(
  { type: ResourceType, id: Type.String({ format: 'uuid' }) },
  { description: 'what was bought' },
);
const ListedResource = Type.Object(
  { type: ResourceType, id: Type.String({ format: 'uuid' }), name: Type.String({ description: "the reward's name" }) },
  { description: 'what was bought' },
);

const VoucherPurchase = Type.Object({ ...Common, resource: Resource, ...VoucherFields }, { title: 'VoucherPurchase' });
const PartnerPurchase = Type.Object({ ...Common, resource: Resource, ...PartnerFields }, { title: 'PartnerPurchase' });

export const PurchaseResource = Type.Union([VoucherPurchase, PartnerPurchase], { title: 'Purchase' });

export const PurchaseListItem = Type.Union(
  [
    Type.Object({ ...Common, resource: ListedResource, ...VoucherFields }, { title: 'VoucherPurchaseListItem' }),
    Type.Object({ ...Common, resource: ListedResource, ...PartnerFields }, { title: 'PartnerPurchaseListItem' }),
  ],
  { title: 'PurchaseListItem' },
);

/**
 * A voucher purchase (`benefit.id` is the voucher's), or a partner product's, whose order is the
 * purchase: `orderId` and `benefit.id` are its id, and `delayed` (PARTNER2 only) is true while the
 * partner has not confirmed it.
 */
export type PurchaseView = Static<typeof PurchaseResource>;
export type PurchaseListView = Static<typeof PurchaseListItem>;
