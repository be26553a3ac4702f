import { Type } from 'typebox';
import { PURCHASE_RESOURCE_TYPES, type PurchaseResourceType } from '../../shared/rewards/purchase.entity.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';

/** Exactly one identifier of the member an admin buys for, saying which it is. */
const Subject = Type.Union(
  [
    Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
    Type.Object({ authIdentifier: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false }),
    Type.Object({ accountNumber: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  ],
  {
    title: 'PurchaseSubject',
    description:
      'The member to buy for, by exactly one of `id`, `authIdentifier` or `accountNumber`: required with an admin token, refused with a user token',
  },
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

const PurchaseFields = {
  id: Type.String({ format: 'uuid' }),
  user: Type.Object({ id: Type.String({ format: 'uuid' }) }, { description: 'the member who bought it' }),
  benefit: Type.Object(
    { type: Type.String({ enum: ['VOUCHER'] }), id: Type.String({ format: 'uuid', description: "the voucher's id" }) },
    { description: 'what the member got' },
  ),
  points: Type.Integer({ description: 'the price paid, spent from the balance' }),
  completedAt: Type.String({ format: 'date-time' }),
};
const ResourceType = Type.String({ enum: [...PURCHASE_RESOURCE_TYPES] });

export const PurchaseResource = Type.Object(
  {
    ...PurchaseFields,
    resource: Type.Object(
      { type: ResourceType, id: Type.String({ format: 'uuid' }) },
      { description: 'what was bought' },
    ),
  },
  { title: 'Purchase' },
);

export const PurchaseListItem = Type.Object(
  {
    ...PurchaseFields,
    resource: Type.Object(
      {
        type: ResourceType,
        id: Type.String({ format: 'uuid' }),
        name: Type.String({ description: "the reward's name" }),
      },
      { description: 'what was bought' },
    ),
  },
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
  id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
  user: { id: '3b2a1c0d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' },
  resource: { type: 'REWARD' as const, id: '0f1e2d3c-4b5a-4697-8877-665544332211' },
  benefit: { type: 'VOUCHER' as const, id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' },
  points: 250,
  completedAt: '2026-02-14T10:30:00.000Z',
};

/** A page of purchases as the examples show it: each names the reward bought. */
export const PURCHASE_LIST_EXAMPLE = [
  { ...PURCHASE_EXAMPLE, resource: { ...PURCHASE_EXAMPLE.resource, name: 'Free coffee' } },
];
export const PURCHASE_LIST_PAGE =
  'A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.';
