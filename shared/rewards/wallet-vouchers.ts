import type { Knex } from 'knex';
import type { UserView } from '../users/user-view.js';
import type { VoucherCodes } from './voucher-codes.js';
import type { VoucherView } from './voucher-resource.js';
import { VOUCHER_FROM, VOUCHER_SELECT, voucherView, type VoucherRow } from './voucher-view.js';

export interface WalletVoucherOptions {
  /** Also the vouchers redeemed and not yet validated, while their redemption window lasts. */
  includeAllUnvalidatedVouchers: boolean;
  includeDiscounts: boolean;
  /** The caller may see redeemed codes' values (voucher-view.ts). */
  revealCode: boolean;
}

/**
 * The vouchers part of a member's wallet (docs/users.md#wallet), in two queries whatever the
 * number of vouchers: the vouchers still usable at `now`, each joined to its reward and code, and
 * `loyaltyCost`. A voucher leaves the wallet when it is validated, when it expires, and when it
 * was redeemed and its redemption window passed unvalidated: all read against `now`, so nothing
 * has to run when the window closes (docs/rewards.md#vouchers). By default only the unredeemed
 * ones are shown.
 */
export async function readWalletVouchers(
  knex: Knex,
  codes: VoucherCodes,
  tenantId: string,
  owner: UserView,
  now: Date,
  options: WalletVoucherOptions,
): Promise<{ loyaltyCost: number; vouchers: VoucherView[] }> {
  const found = await knex.raw<{ rows: VoucherRow[] }>(
    `${VOUCHER_SELECT} ${VOUCHER_FROM}
      where v.tenant_id = ? and v.user_id = ? and v.burned_at is null and v.expires_at > ?
        and (v.redeemed_at is null or (?::boolean and v.redemption_ends_at > ?))
      order by v.created_at, v.id`,
    [tenantId, owner.id, now, options.includeAllUnvalidatedVouchers, now],
  );
  return {
    loyaltyCost: await loyaltyCost(knex, tenantId, owner.id),
    vouchers: found.rows.map((row) => voucherView(row, codes, owner, options)),
  };
}

/**
 * What the member's rewards cost the tenant (docs/users.md#wallet): the `cost` each voucher took
 * from its reward when obtained, whatever became of the voucher since, and the cost of each partner
 * product bought and not refunded.
 */
async function loyaltyCost(knex: Knex, tenantId: string, userId: string): Promise<number> {
  const summed = await knex.raw<{ rows: { cost: string }[] }>(
    `select (select coalesce(sum(cost), 0) from voucher where tenant_id = ? and user_id = ?)
          + (select coalesce(sum(cost), 0) from purchase
              where tenant_id = ? and user_id = ? and resource_type <> 'REWARD' and status <> 'REFUNDED') as cost`,
    [tenantId, userId, tenantId, userId],
  );
  return Number(summed.rows[0]!.cost);
}
