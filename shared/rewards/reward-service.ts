import { randomUUID } from 'node:crypto';
import { raw, type FilterQuery } from '@mikro-orm/core';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedRecords } from '../audit/audited-records.js';
import type { ChangedBy } from '../audit/audited-resource-change.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { storedAmount } from '../platform/db/stored-amount.js';
import type { EntityManager } from '../platform/db/orm.js';
import { fieldError } from '../platform/errors/app-errors.js';
import type { Partner } from '../tenants/tenant-settings.js';
import { Reward, type Discount, type RewardType } from './reward.entity.js';

/** What a reward is made of (docs/rewards.md#rewards); absent fields take the defaults below. */
export interface RewardInput {
  type: RewardType;
  name: string;
  summary?: string | null;
  pictureUrl?: string | null;
  price: number;
  cost?: number;
  purchasable?: boolean;
  availableFrom?: string | null;
  availableUntil?: string | null;
  stock?: number | null;
  voucherValidityDays?: number;
  redemptionWindowMinutes?: number;
  defaultLocale?: string;
  redemptionMessage?: string | null;
  discounts?: Discount[];
  /** The partner's product id: required for a partner product, refused for a VOUCHER. */
  partnerProductId?: string | null;
}

export const REWARD_DEFAULTS = {
  voucherValidityDays: 365,
  redemptionWindowMinutes: 15,
  defaultLocale: 'en',
} as const;

export function rewardView(reward: Reward) {
  return {
    id: reward.id,
    type: reward.type,
    name: reward.name,
    summary: reward.summary ?? null,
    pictureUrl: reward.pictureUrl ?? null,
    price: reward.price,
    cost: reward.cost,
    purchasable: reward.purchasable,
    availableFrom: reward.availableFrom?.toISOString() ?? null,
    availableUntil: reward.availableUntil?.toISOString() ?? null,
    stock: reward.stock ?? null,
    voucherValidityDays: reward.voucherValidityDays,
    redemptionWindowMinutes: reward.redemptionWindowMinutes,
    defaultLocale: reward.defaultLocale,
    redemptionMessage: reward.redemptionMessage ?? null,
    discounts: reward.discounts,
    partnerProductId: reward.partnerProductId ?? null,
    createdAt: reward.createdAt.toISOString(),
    updatedAt: reward.updatedAt.toISOString(),
  };
}

const rewards = auditedRecords({ resourceType: 'reward', entity: Reward, view: rewardView });

export async function createReward(
  deps: AuditDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: RewardInput,
  now: Date,
  id: string = randomUUID(),
): Promise<Reward> {
  return rewards.create(deps, em, by, id, async (tx, owned) => {
    const availableFrom = input.availableFrom ? new Date(input.availableFrom) : null;
    const availableUntil = input.availableUntil ? new Date(input.availableUntil) : null;
    checkWindow(availableFrom, availableUntil);
    checkPartnerProduct(input.type, input.partnerProductId ?? null);
    const reward = tx.create(Reward, {
      ...owned,
      type: input.type,
      name: input.name,
      summary: input.summary ?? null,
      pictureUrl: input.pictureUrl ?? null,
      price: input.price,
      cost: storedAmount(input.cost ?? 0),
      purchasable: input.purchasable ?? true,
      availableFrom,
      availableUntil,
      stock: input.stock ?? null,
      voucherValidityDays: input.voucherValidityDays ?? REWARD_DEFAULTS.voucherValidityDays,
      redemptionWindowMinutes: input.redemptionWindowMinutes ?? REWARD_DEFAULTS.redemptionWindowMinutes,
      defaultLocale: input.defaultLocale ?? REWARD_DEFAULTS.defaultLocale,
      redemptionMessage: input.redemptionMessage ?? null,
      discounts: input.discounts ?? [],
      partnerProductId: input.partnerProductId ?? null,
      hasPool: false,
      createdAt: now,
      updatedAt: now,
    });
    return reward;
  });
}

/** A reward's changes: every field but `type`, which decides what buying it does and is set once. */
export type RewardChanges = Partial<Omit<RewardInput, 'type'>>;

export const findReward = rewards.find;

/**
 * Changes the fields given (docs/rewards.md#rewards), audited as `reward.updated`. The window is
 * checked as it stands after the change, so moving one end past the other is refused either way.
 */
export async function updateReward(
  deps: AuditDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: RewardChanges,
  now: Date,
): Promise<Reward> {
  return rewards.update(deps, em, by, id, (_tx, reward) => {
    copyWritableFields(reward, changes, [
      'name',
      'summary',
      'pictureUrl',
      'price',
      'purchasable',
      'stock',
      'voucherValidityDays',
      'redemptionWindowMinutes',
      'defaultLocale',
      'redemptionMessage',
      'discounts',
      'partnerProductId',
    ]);
    if (changes.cost !== undefined) reward.cost = storedAmount(changes.cost);
    checkPartnerProduct(reward.type, reward.partnerProductId ?? null);
    if (changes.availableFrom !== undefined) reward.availableFrom = dateOrNull(changes.availableFrom);
    if (changes.availableUntil !== undefined) reward.availableUntil = dateOrNull(changes.availableUntil);
    checkWindow(reward.availableFrom ?? null, reward.availableUntil ?? null);
    reward.updatedAt = now;
  });
}

/**
 * The rewards a member can buy at `now` (docs/rewards.md#rewards): VOUCHER rewards and the partner
 * products of the partners the tenant has configured (`partners`), purchasable, inside the window,
 * with stock left, and, for a reward with a pool, a free code in it. What a purchase would refuse
 * for the reward itself is not offered; the member's balance is left to `affordable`.
 */
export function offeredAt(now: Date, partners: readonly Partner[]): FilterQuery<Reward> {
  return {
    type: { $in: ['VOUCHER', ...partners.map((partner) => `${partner}_PRODUCT` as const)] },
    purchasable: true,
    $and: [
      { $or: [{ availableFrom: null }, { availableFrom: { $lte: now } }] },
      { $or: [{ availableUntil: null }, { availableUntil: { $gt: now } }] },
      { $or: [{ stock: null }, { stock: { $gt: 0 } }] },
      {
        $or: [
          { hasPool: false },
          {
            [raw(
              (alias: string) =>
                `exists (select 1 from reward_code where reward_code.reward_id = ${alias}.id and reward_code.reserved_at is null)`,
            )]: true,
          },
        ],
      },
    ],
  };
}

function dateOrNull(value: string | null): Date | null {
  return value === null ? null : new Date(value);
}

/** `availableUntil` must come after `availableFrom` when both are set: 400 naming `availableUntil`. */
export function checkWindow(availableFrom: Date | null, availableUntil: Date | null): void {
  if (availableFrom && availableUntil && availableUntil <= availableFrom)
    throw fieldError(
      'availableUntil',
      availableUntil.toISOString(),
      'isAfterAvailableFrom',
      'availableUntil must be after availableFrom',
    );
}

/**
 * A partner product names what its partner is to deliver (docs/rewards.md#partner-products); a
 * VOUCHER has no partner: 400 naming `partnerProductId` either way.
 */
export function checkPartnerProduct(type: RewardType, partnerProductId: string | null): void {
  const partner = type !== 'VOUCHER';
  if (partner && !partnerProductId)
    throw fieldError('partnerProductId', partnerProductId, 'required', `a ${type} reward needs its partnerProductId`);
  if (!partner && partnerProductId)
    throw fieldError('partnerProductId', partnerProductId, 'partnerOnly', 'a VOUCHER reward has no partnerProductId');
}
