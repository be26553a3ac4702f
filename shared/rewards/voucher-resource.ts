import { Type, type Static, type TSchema } from 'typebox';
import { literalUnion } from '../platform/validation/literal-union.js';
import type { UserViewSchema } from '../users/user-view.js';
import { REWARD_TYPES } from './reward.entity.js';

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const NullableTimestamp = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });
const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const Discount = Type.Object(
  {
    type: Type.Literal('FIXED', { description: 'a fixed amount off; the only type' }),
    value: Type.String({ description: "the amount off, a decimal in the till's currency" }),
    sku: Type.String({ description: "the discount's own SKU, as the till rings it up" }),
    productSku: Type.String({ description: 'the SKU of the product it applies to' }),
  },
  { title: 'Discount' },
);

const VoucherCode = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: "the code's id" }),
    createdAt: Timestamp('when the code was uploaded to the pool or generated'),
    updatedAt: Timestamp('when the code last changed: its redemption, or its validation'),
    redeemedAt: Timestamp('when the member started redemption'),
    validatedAt: NullableTimestamp('when a till validated (burned) it; null until then'),
    value: NullableString(
      "the code to show at the till: shown to the voucher's owner and to tokens with `admin:vouchers`, null to other " +
        'admins; null too if it can no longer be opened (the platform secret was replaced)',
    ),
  },
  { title: 'VoucherCode' },
);

export const VoucherReward = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: "the reward's id" }),
    type: literalUnion(REWARD_TYPES, { description: "the reward's kind" }),
    name: Type.String({ description: "the reward's name" }),
    pictureUrl: NullableString("the reward's picture"),
    purchasable: Type.Boolean({ description: 'whether it can be bought with points' }),
    summary: NullableString('what the catalogue says of it'),
    defaultLocale: Type.String({ description: 'the locale of its name, summary and message' }),
    redemptionMessage: NullableString("what the member's app shows once the voucher is redeemed"),
    discounts: Type.Optional(
      Type.Array(Discount, {
        description:
          'what the till applies: present when the wallet is read with `includeDiscounts=true` (an empty array when none), and in the answers of the voucher commands',
      }),
    ),
  },
  { title: 'VoucherReward' },
);

/**
 * A voucher as the API shows it (docs/rewards.md#vouchers), its `owner` shown by `owner`: the API's
 * `User`, or on this floor the member's own fields (UserView).
 */
export function voucherResource<Owner extends TSchema>(owner: Owner) {
  return Type.Object(
    {
      id: Type.String({ format: 'uuid', description: "the voucher's id, the `voucherId` of redeem_benefit" }),
      type: Type.Literal('VOUCHER', { description: 'always VOUCHER' }),
      createdAt: Timestamp('when the member bought or was granted it'),
      redeemedAt: NullableTimestamp('when the member started redemption; null until then'),
      expiresAt: Timestamp("when it expires: the reward's voucherValidityDays after it was obtained"),
      burnedAt: NullableTimestamp('when a till validated it; null until then'),
      code: Type.Union([VoucherCode, Type.Null()], {
        description: 'null until the voucher is redeemed; then the code, revealed to its owner and to the till',
      }),
      reward: VoucherReward,
      owner,
    },
    { title: 'Voucher' },
  );
}

/** A voucher as `voucherView` shows it, its owner a member's own fields. */
export type VoucherView = Static<ReturnType<typeof voucherResource<UserViewSchema>>>;
