import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';

export const REWARD_TYPES = ['VOUCHER', 'PARTNER1_PRODUCT', 'PARTNER2_PRODUCT'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

/** A price cut a voucher gives at the till (docs/rewards.md#rewards): only FIXED amounts are defined. */
export interface Discount {
  type: 'FIXED';
  /** The amount off, as a decimal string in the till's currency. */
  value: string;
  /** The discount's own SKU, as the till rings it up. */
  sku: string;
  /** The SKU of the product the discount applies to. */
  productSku: string;
}

/**
 * Something a member can obtain (docs/rewards.md#rewards): bought with points, or granted by a
 * VOUCHER reaction. `stock` is what is left to hand out (null: no limit); `hasPool` is set by the
 * first code upload, and from then on its vouchers take codes from that pool only.
 */
export const Reward = defineEntity({
  name: 'Reward',
  tableName: 'reward',
  indexes: [{ properties: ['tenant', 'createdAt'] }],
  checks: [
    { name: 'reward_stock_not_negative', expression: 'stock >= 0' },
    { name: 'reward_price_not_negative', expression: 'price >= 0' },
  ],
  properties: {
    ...tenantOwned(),
    type: p.enum([...REWARD_TYPES]),
    name: p.string().length(256),
    summary: p.text().nullable(),
    pictureUrl: p.text().nullable(),
    /** In points. */
    price: p.bigint('number'),
    /** In money: what the reward costs the tenant, summed into a member's loyaltyCost. */
    cost: p.decimal('number').precision(14).scale(4).default(0),
    purchasable: p.boolean().default(true),
    availableFrom: p.datetime().nullable(),
    availableUntil: p.datetime().nullable(),
    stock: p.integer().nullable(),
    voucherValidityDays: p.integer(),
    redemptionWindowMinutes: p.integer(),
    defaultLocale: p.string(),
    redemptionMessage: p.text().nullable(),
    discounts: p.json<Discount[]>(),
    /** A partner reward's product as its partner knows it (docs/rewards.md#partner-products); null for a VOUCHER. */
    partnerProductId: p.string().nullable(),
    hasPool: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type Reward = InferEntity<typeof Reward>;

/**
 * One voucher code (docs/rewards.md#codes), uploaded to a reward's pool or generated for a voucher.
 * The code itself is never stored in the clear: `codeHash` (a keyed hash, unique in the tenant)
 * finds it when a till presents it, `sealedCode` shows it to the voucher's owner once redeemed.
 * `reservedAt` is set when a voucher takes it; the partial index lists a pool's free codes.
 */
export const RewardCode = defineEntity({
  name: 'RewardCode',
  tableName: 'reward_code',
  uniques: [{ properties: ['tenant', 'codeHash'] }],
  indexes: [
    // A reward's codes counted (its code summary) from the index alone, and its codes found by the
    // reward's foreign key; reward_id first, as that lookup names no tenant.
    { properties: ['reward', 'tenant', 'reservedAt'] },
    {
      name: 'reward_code_available_index',
      expression: `create index "reward_code_available_index" on "reward_code" ("reward_id") where "reserved_at" is null`,
    },
  ],
  properties: {
    ...tenantOwned(),
    reward: p.manyToOne(Reward).deleteRule('cascade'),
    codeHash: p.string(),
    sealedCode: p.text(),
    createdAt: p.datetime(),
    reservedAt: p.datetime().nullable(),
  },
});

export type RewardCode = InferEntity<typeof RewardCode>;
