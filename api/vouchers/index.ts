import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerRedeemBenefit } from './redeem-benefit.js';
import { registerValidateVoucher } from './validate-voucher.js';

/** `/v1/commands/…` for vouchers (docs/rewards.md#at-the-till): what the point of sale calls. */
export function registerVoucherRoutes(app: App, context: AppContext): void {
  registerRedeemBenefit(app, context);
  registerValidateVoucher(app, context);
}
