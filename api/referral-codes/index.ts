import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerGetReferralCode } from './get-referral-code.js';

/** `/v1/users/{me,id}/referral_code` (docs/referrals.md#invite-codes): members' invite codes. */
export function registerReferralCodeRoutes(app: App, context: AppContext): void {
  registerGetReferralCode(app, context);
}
