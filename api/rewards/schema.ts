import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type, type TSchema } from 'typebox';
import { INTEGER_COLUMN_MAX } from '../../shared/platform/db/integer-columns.js';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { LocaleTag } from '../../shared/platform/validation/locale-tag.js';
import { MAX_POOL_CODE_LENGTH, MAX_POOL_CODES_PER_REQUEST } from '../../shared/rewards/code-pool.js';
import { VOUCHER_CODE_PATTERN } from '../../shared/rewards/voucher-codes.js';
import { uuidPath } from '../routes/request-input.js';

const Nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** The reward types (reward.entity.ts) as a schema, spelled out so that its static type is the union of the three. */
const RewardType = (options: { description?: string } = {}) =>
  Type.Union([Type.Literal('VOUCHER'), Type.Literal('PARTNER1_PRODUCT'), Type.Literal('PARTNER2_PRODUCT')], options);

const Discount = Type.Object(
  {
    type: Type.Literal('FIXED', { description: 'an amount off; the only type there is' }),
    value: Type.String({
      pattern: '^\\d{1,10}(\\.\\d{1,4})?$',
      description: "the amount off, a decimal string in the till's currency, e.g. `2.50`",
    }),
    sku: Type.String({ minLength: 1, maxLength: 200, description: "the discount's own SKU, as the till rings it up" }),
    productSku: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'the SKU of the product the discount applies to',
    }),
  },
  { additionalProperties: false },
);

/** Every field of a reward a request may set (docs/rewards.md#rewards), `type` aside. */
const rewardFields = {
  name: Type.String({ minLength: 1, maxLength: 256 }),
  summary: Type.Optional(Nullable(Type.String({ maxLength: 2000 }), 'what the catalogue says about it')),
  pictureUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2048 }), 'its picture')),
  price: Type.Integer({ minimum: 0, maximum: 1e12, description: 'in points, a whole number, 0 or more' }),
  cost: Type.Optional(
    Type.Number({
      minimum: 0,
      // The column holds 10 digits before the point (numeric(14,4)).
      exclusiveMaximum: 1e10,
      description: "in money, what the reward costs the tenant; a member's `loyaltyCost` sums it (default 0)",
    }),
  ),
  purchasable: Type.Optional(
    Type.Boolean({ description: '`false`: it can be granted by a VOUCHER reaction but not bought (default true)' }),
  ),
  availableFrom: Type.Optional(
    Nullable(Type.String({ format: 'date-time' }), 'from when it can be bought; null: from now on'),
  ),
  availableUntil: Type.Optional(
    Nullable(Type.String({ format: 'date-time' }), 'until when it can be bought, after `availableFrom`; null: no end'),
  ),
  stock: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 0, maximum: INTEGER_COLUMN_MAX }),
      'how many are left to hand out; null: no limit. Each purchase or grant takes one',
    ),
  ),
  voucherValidityDays: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 3650,
      description: 'a voucher expires this many days after it is obtained (default 365)',
    }),
  ),
  redemptionWindowMinutes: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10080,
      description: 'how long a redeemed voucher may wait for the till (default 15)',
    }),
  ),
  defaultLocale: Type.Optional(
    LocaleTag('a language tag such as `en` or `pt-BR`: the locale of `redemptionMessage` (default `en`)'),
  ),
  redemptionMessage: Type.Optional(
    Nullable(Type.String({ maxLength: 2000 }), "what the member's app shows when the voucher is redeemed"),
  ),
  discounts: Type.Optional(
    Type.Array(Discount, { maxItems: 100, description: 'what the till applies when it takes the voucher' }),
  ),
  partnerProductId: Type.Optional(
    Nullable(
      Type.String({ minLength: 1, maxLength: 200 }),
      "a partner product's SKU at the partner: required for PARTNER1_PRODUCT and PARTNER2_PRODUCT, refused for VOUCHER",
    ),
  ),
};

export const CreateRewardBody = Type.Object(
  {
    type: RewardType({
      description:
        "`VOUCHER` puts a voucher in the wallet; `PARTNER1_PRODUCT` and `PARTNER2_PRODUCT` are ordered from the tenant's partner",
    }),
    ...rewardFields,
  },
  { additionalProperties: false, title: 'CreateRewardBody' },
);

/** A reward's `type` decides what buying it does, so it is set once: a PATCH naming it is refused. */
export const UpdateRewardBody = changesSchema(Type.Object(rewardFields), { title: 'UpdateRewardBody' });

const rewardProperties = {
  id: Type.String({ format: 'uuid' }),
  type: RewardType(),
  name: Type.String(),
  summary: Type.Union([Type.String(), Type.Null()]),
  pictureUrl: Type.Union([Type.String(), Type.Null()]),
  price: Type.Integer(),
  cost: Type.Number(),
  purchasable: Type.Boolean(),
  availableFrom: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  availableUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  stock: Type.Union([Type.Integer(), Type.Null()]),
  voucherValidityDays: Type.Integer(),
  redemptionWindowMinutes: Type.Integer(),
  defaultLocale: Type.String(),
  redemptionMessage: Type.Union([Type.String(), Type.Null()]),
  discounts: Type.Array(
    Type.Object({
      type: Type.Literal('FIXED'),
      value: Type.String(),
      sku: Type.String(),
      productSku: Type.String(),
    }),
  ),
  partnerProductId: Type.Union([Type.String(), Type.Null()]),
  ...TIMESTAMPS,
};

export const RewardResource = Type.Object(rewardProperties, { title: 'Reward' });

/** What `GET /v1/rewards` lists: a reward, and for a member's token whether the balance covers it. */
export const ListedReward = Type.Object(
  {
    ...rewardProperties,
    affordable: Type.Optional(
      Type.Boolean({
        description: "with a member's token only: the member's balance covers the price",
      }),
    ),
  },
  { title: 'ListedReward' },
);

export const AddCodesBody = Type.Object(
  {
    codes: Type.Array(Type.String({ minLength: 1, maxLength: MAX_POOL_CODE_LENGTH, pattern: VOUCHER_CODE_PATTERN }), {
      minItems: 1,
      maxItems: MAX_POOL_CODES_PER_REQUEST,
      description:
        'the codes as printed, kept as given; matched in any case and with any dashes or spaces, so codes that differ only in those are one code',
    }),
  },
  { additionalProperties: false, title: 'AddCodesBody' },
);

export const CodesAdded = Type.Object(
  {
    added: Type.Integer({ description: 'codes now in the pool' }),
    duplicates: Type.Integer({
      description: "codes left out: already in one of the tenant's pools, or repeated in the request",
    }),
  },
  { title: 'CodesAdded' },
);

export const REWARD_LIST: ListSpec = {
  resource: 'reward',
  defaultSort: 'createdAt',
  fields: {
    type: { type: 'string', filterable: true },
    purchasable: { type: 'boolean', filterable: true },
    name: { type: 'string', filterable: true, sortable: true },
    price: { type: 'number', filterable: true, sortable: true },
    availableFrom: { type: 'datetime', filterable: true, sortable: true },
    availableUntil: { type: 'datetime', filterable: true, sortable: true },
    ...TIMESTAMP_FIELDS,
  },
};

export const access = { admin: 'admin:rewards' } as const;
export const tags = ['Rewards'];

/** A reward as the examples show it: created, read, listed and changed. */
export const REWARD_EXAMPLE = {
  id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
  type: 'VOUCHER' as const,
  name: 'Free espresso',
  summary: 'One espresso at any of our shops',
  pictureUrl: 'https://images.example.org/rewards/espresso.png',
  price: 300,
  cost: 0.85,
  purchasable: true,
  availableFrom: '2026-02-01T00:00:00.000Z',
  availableUntil: null,
  stock: 500,
  voucherValidityDays: 30,
  redemptionWindowMinutes: 15,
  defaultLocale: 'en',
  redemptionMessage: 'Show this code at the till',
  discounts: [{ type: 'FIXED' as const, value: '2.50', sku: 'DISC-ESPRESSO', productSku: 'SKU-ESPRESSO' }],
  partnerProductId: null,
  createdAt: '2026-01-09T08:00:00.000Z',
  updatedAt: '2026-01-09T08:00:00.000Z',
};

export const RewardIdParams = uuidPath({ id: { description: "The reward's id", example: REWARD_EXAMPLE.id } });
