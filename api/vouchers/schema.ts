import { Type } from 'typebox';
import { VOUCHER_CODE_PATTERN } from '../../shared/rewards/voucher-codes.js';
import { voucherResource, VoucherReward } from '../../shared/rewards/voucher-resource.js';
import { REWARD_EXAMPLE } from '../rewards/schema.js';
import { USER_EXAMPLE, UserResource } from '../users/schema.js';

export const VoucherResource = voucherResource(UserResource);

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
