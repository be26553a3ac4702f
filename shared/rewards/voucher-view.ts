import type { UserView } from '../users/user-view.js';
import type { Discount, RewardType } from './reward.entity.js';
import type { VoucherCodes } from './voucher-codes.js';
import type { VoucherView } from './voucher-resource.js';
import { declaredOnly } from '../platform/validation/declared-fields.js';

/** A timestamp as the driver answers it. */
type At = Date | string;

/**
 * One voucher with its reward and its code, as one joined row: the wallet and the voucher commands
 * read it with `VOUCHER_SELECT`, so every voucher shown costs no query of its own.
 */
export interface VoucherRow {
  id: string;
  tenant_id: string;
  user_id: string;
  created_at: At;
  updated_at: At;
  expires_at: At;
  redeemed_at: At | null;
  redemption_ends_at: At | null;
  burned_at: At | null;
  reward_id: string;
  reward_type: RewardType;
  reward_name: string;
  reward_picture_url: string | null;
  reward_purchasable: boolean;
  reward_summary: string | null;
  reward_default_locale: string;
  reward_redemption_message: string | null;
  reward_redemption_window_minutes: number;
  reward_discounts: Discount[];
  code_id: string;
  code_created_at: At;
  code_sealed: string;
}

/** The columns of a `VoucherRow`, from `voucher v` joined to its reward `r` and its code `c` (VOUCHER_FROM). */
export const VOUCHER_SELECT = `select v.id, v.tenant_id, v.user_id, v.created_at, v.updated_at, v.expires_at, v.redeemed_at,
  v.redemption_ends_at, v.burned_at, r.id as reward_id, r.type as reward_type, r.name as reward_name,
  r.picture_url as reward_picture_url, r.purchasable as reward_purchasable, r.summary as reward_summary,
  r.default_locale as reward_default_locale, r.redemption_message as reward_redemption_message,
  r.redemption_window_minutes as reward_redemption_window_minutes, r.discounts as reward_discounts,
  c.id as code_id, c.created_at as code_created_at, c.sealed_code as code_sealed`;

export const VOUCHER_FROM = `from voucher v join reward r on r.id = v.reward_id join reward_code c on c.id = v.code_id`;

const shownAsVoucher = declaredOnly<VoucherView>();

export interface VoucherViewOptions {
  /** The reward's `discounts` (GET …/wallet?includeDiscounts=true, and the till's commands). */
  includeDiscounts: boolean;
  /**
   * Whether the caller may see a redeemed code's `value`: its owner and the till (`admin:vouchers`)
   * may; an admin reading wallets with `read:users` alone sees the code's other fields, `value`
   * null, so a support tool cannot take a code to a till (docs/rewards.md#codes).
   */
  revealCode: boolean;
}

/**
 * A voucher as the API shows it (docs/rewards.md#vouchers), the same in the wallet and in the
 * answers of the commands. The code stays hidden (`null`) until the voucher is redeemed; validating
 * an unredeemed voucher redeems it too, so a validated voucher always shows its code.
 */
export function voucherView(
  row: VoucherRow,
  codes: VoucherCodes,
  owner: UserView,
  options: VoucherViewOptions,
): VoucherView {
  const redeemedAt = row.redeemed_at ? iso(row.redeemed_at) : null;
  const burnedAt = row.burned_at ? iso(row.burned_at) : null;
  return shownAsVoucher({
    id: row.id,
    type: 'VOUCHER' as const,
    createdAt: iso(row.created_at),
    redeemedAt,
    expiresAt: iso(row.expires_at),
    burnedAt,
    code: redeemedAt
      ? {
          id: row.code_id,
          createdAt: iso(row.code_created_at),
          updatedAt: iso(row.updated_at),
          redeemedAt,
          validatedAt: burnedAt,
          value: options.revealCode ? (codes.open(row.tenant_id, row.code_id, row.code_sealed) ?? null) : null,
        }
      : null,
    reward: {
      id: row.reward_id,
      type: row.reward_type,
      name: row.reward_name,
      pictureUrl: row.reward_picture_url,
      purchasable: row.reward_purchasable,
      summary: row.reward_summary,
      defaultLocale: row.reward_default_locale,
      redemptionMessage: row.reward_redemption_message,
      ...(options.includeDiscounts ? { discounts: row.reward_discounts } : {}),
    },
    owner,
  });
}

/** Why a voucher can no longer be used at `now`, or undefined while it can (docs/rewards.md#at-the-till). */
export function voucherGone(row: VoucherRow, now: Date): 'burned' | 'expired' | undefined {
  if (row.burned_at) return 'burned';
  if (new Date(row.expires_at) <= now) return 'expired';
  if (row.redemption_ends_at && new Date(row.redemption_ends_at) <= now) return 'expired';
  return undefined;
}

function iso(at: At): string {
  return new Date(at).toISOString();
}
