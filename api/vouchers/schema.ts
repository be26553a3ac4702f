import { Type } from 'typebox';
import { literalUnion } from '../../shared/platform/validation/literal-union.js';
import { REWARD_TYPES } from '../../shared/rewards/reward.entity.js';
import { VOUCHER_CODE_PATTERN } from '../../shared/rewards/voucher-codes.js';
import { REWARD_EXAMPLE } from '../rewards/schema.js';
import { USER_EXAMPLE, UserResource } from '../users/schema.js';

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

const VoucherReward = Type.Object(
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

export const VoucherResource = Type.Object(
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
    owner: UserResource,
  },
  { title: 'Voucher' },
);

export const RedeemBenefitBody = Type.Object(
  { voucherId: Type.String({ minLength: 1, maxLength: 100, description: 'the id of the voucher to redeem' }) },
  { additionalProperties: false, title: 'RedeemBenefitBody' },
);

export const ValidateVoucherBody = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: VOUCHER_CODE_PATTERN,
      description:
        'the code as the member shows it, in any case and with any dashes or spaces (`abcd efgh jkmn` is `ABCD-EFGH-JKMN`)',
    }),
  },
  { additionalProperties: false, title: 'ValidateVoucherBody' },
);

export const tags = ['Vouchers'];

/** The reward of the examples, as a wallet's voucher shows it: the fields of VoucherReward, discounts aside. */
const VOUCHER_REWARD_EXAMPLE = Object.fromEntries(
  Object.keys(VoucherReward.properties)
    .filter((field) => field !== 'discounts')
    .map((field) => [field, REWARD_EXAMPLE[field as keyof typeof REWARD_EXAMPLE]]),
);

/** A voucher in a wallet: unredeemed, its code hidden. */
export const WALLET_VOUCHER_EXAMPLE = {
  id: '0c9b8a7f-6e5d-4c3b-a2a1-908f7e6d5c4b',
  type: 'VOUCHER',
  createdAt: '2026-03-01T09:30:00.000Z',
  redeemedAt: null,
  expiresAt: '2027-03-01T09:30:00.000Z',
  burnedAt: null,
  code: null,
  reward: VOUCHER_REWARD_EXAMPLE,
  owner: USER_EXAMPLE,
};

/** The same voucher once redeemed at the till: its code revealed, the reward's discounts shown. */
export const REDEEMED_VOUCHER_EXAMPLE = {
  ...WALLET_VOUCHER_EXAMPLE,
  redeemedAt: '2026-03-05T12:00:00.000Z',
  code: {
    id: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
    createdAt: '2026-03-01T09:30:00.000Z',
    updatedAt: '2026-03-05T12:00:00.000Z',
    redeemedAt: '2026-03-05T12:00:00.000Z',
    validatedAt: null,
    value: 'K7QM-3XNP-W9TD',
  },
  reward: { ...VOUCHER_REWARD_EXAMPLE, discounts: REWARD_EXAMPLE.discounts },
};

/** The same voucher validated: burned, gone from the wallet. */
export const VALIDATED_VOUCHER_EXAMPLE = {
  ...REDEEMED_VOUCHER_EXAMPLE,
  burnedAt: '2026-03-05T12:02:00.000Z',
  code: {
    ...REDEEMED_VOUCHER_EXAMPLE.code,
    updatedAt: '2026-03-05T12:02:00.000Z',
    validatedAt: '2026-03-05T12:02:00.000Z',
  },
};
