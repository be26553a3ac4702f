import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreateReferralCampaign } from './create-referral-campaign.js';
import { registerGetReferralCampaign } from './get-referral-campaign.js';
import { registerGetReferralCampaignStats } from './get-referral-campaign-stats.js';
import { registerListReferralCampaigns } from './list-referral-campaigns.js';
import { registerUpdateReferralCampaign } from './update-referral-campaign.js';

/** `/v1/referral_campaigns` (docs/referrals.md#referral-campaigns): what members' invites are part of. */
export function registerReferralCampaignRoutes(app: App, context: AppContext): void {
  registerCreateReferralCampaign(app, context);
  registerListReferralCampaigns(app, context);
  registerGetReferralCampaign(app, context);
  registerUpdateReferralCampaign(app, context);
  registerGetReferralCampaignStats(app, context);
}
