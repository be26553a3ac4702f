import { Type } from 'typebox';
import { PURCHASE_RESOURCE_TYPES, type PurchaseResourceType } from '../../shared/rewards/purchase.entity.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { MemberReferenceBody, USER_EXAMPLE } from '../users/schema.js';
import { REWARD_EXAMPLE } from '../rewards/schema.js';
import { WALLET_VOUCHER_EXAMPLE } from '../vouchers/schema.js';

const Subject = MemberReferenceBody(
  'PurchaseSubject',
  'The member to buy for, required with an admin token and refused with a user token',
);

/** The body of POST /v1/purchases (docs/rewards.md#purchases). */
export const CreatePurchaseBody = Type.Object(
  {
    resource: Type.Object(
      {
        type: Type.Unsafe<PurchaseResourceType>(
          Type.String({
            enum: [...PURCHASE_RESOURCE_TYPES],
            description: '`REWARD` for a reward whose type is `VOUCHER`',
          }),
        ),
        id: Type.String({ minLength: 1, maxLength: 64, description: "the reward's id" }),
      },
      { additionalProperties: false },
    ),
    subject: Type.Optional(Subject),
  },
  { additionalProperties: false, title: 'CreatePurchaseBody' },
);

const ResourceType = Type.String({ enum: [...PURCHASE_RESOURCE_TYPES] });
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
      type: Type.Union([Type.Literal('PARTNER1_PRODUCT'), Type.Literal('PARTNER2_PRODUCT')]),
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

export const PurchaseResource = Type.Union(
  [
    Type.Object({ ...Common, resource: Resource, ...VoucherFields }, { title: 'VoucherPurchase' }),
    Type.Object({ ...Common, resource: Resource, ...PartnerFields }, { title: 'PartnerPurchase' }),
  ],
  { title: 'Purchase' },
);

export const PurchaseListItem = Type.Union(
  [
    Type.Object({ ...Common, resource: ListedResource, ...VoucherFields }, { title: 'VoucherPurchaseListItem' }),
    Type.Object({ ...Common, resource: ListedResource, ...PartnerFields }, { title: 'PartnerPurchaseListItem' }),
  ],
  { title: 'PurchaseListItem' },
);

export const PURCHASE_LIST: ListSpec = {
  resource: 'purchase',
  defaultSort: 'createdAt',
  fields: {
    'user.id': { type: 'uuid', path: 'user.id', filterable: true },
    'resource.id': { type: 'uuid', path: 'reward.id', filterable: true },
    'resource.type': { type: 'string', path: 'resourceType', filterable: true },
    points: { type: 'number', filterable: true, sortable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

export const tags = ['Purchases'];

/** A purchase as the examples show it: bought, and read back in a list. */
export const PURCHASE_EXAMPLE = {
  id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  user: { id: USER_EXAMPLE.id },
  resource: { type: 'REWARD' as const, id: REWARD_EXAMPLE.id },
  // The voucher bought is the one the wallet and the voucher commands show.
  benefit: { type: 'VOUCHER' as const, id: WALLET_VOUCHER_EXAMPLE.id },
  points: REWARD_EXAMPLE.price,
  completedAt: '2026-02-14T10:30:00.000Z',
};

/** A page of purchases as the examples show it: each names the reward bought. */
export const PURCHASE_LIST_EXAMPLE = [
  { ...PURCHASE_EXAMPLE, resource: { ...PURCHASE_EXAMPLE.resource, name: REWARD_EXAMPLE.name } },
];
export const PURCHASE_LIST_PAGE =
  'A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.';
