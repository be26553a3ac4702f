import type { EntityManager } from '../platform/db/orm.js';
import { ReferralActivity } from './referral-activity.entity.js';
import type { ReferralCampaign } from './referral-campaign.entity.js';
import { Referral } from './referral.entity.js';

/**
 * GET /v1/referral_campaigns/{id}/stats (docs/referrals.md#statistics): the campaign's recorded
 * clicks, its referred registrations, and how many referrals reached a tranche.
 */
export async function campaignStats(em: EntityManager, campaign: ReferralCampaign) {
  const [clicks, registrations, completedTranches] = [
    await em.count(ReferralActivity, { campaign: campaign.id }),
    await em.count(Referral, { campaign: campaign.id }),
    await em.count(Referral, { campaign: campaign.id, tranche: { $ne: null } }),
  ];
  return { clicks, registrations, completedTranches };
}
