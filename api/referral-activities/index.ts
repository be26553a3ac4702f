import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerRecordReferralActivity } from './record-referral-activity.js';

/** `/v1/referral_activities` (docs/referrals.md#clicks): clicks on invites, for campaign statistics. */
export function registerReferralActivityRoutes(app: App, context: AppContext): void {
  registerRecordReferralActivity(app, context);
}
