import { Type } from 'typebox';
import { stringEnum } from '../../shared/platform/validation/literal-union.js';
import { PURCHASE_RESOURCE_TYPES } from '../../shared/rewards/purchase.entity.js';
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
        type: stringEnum(PURCHASE_RESOURCE_TYPES, { description: '`REWARD` for a reward whose type is `VOUCHER`' }),
        id: Type.String({ minLength: 1, maxLength: 64, description: "the reward's id" }),
      },
      { additionalProperties: false },
    ),
    subject: Type.Optional(Subject),
  },
  { additionalProperties: false, title: 'CreatePurchaseBody' },
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
