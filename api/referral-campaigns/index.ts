import type { AppContext } from '../../shared/context.js';
import { campaignView, createCampaign, findCampaign, updateCampaign } from '../../shared/referrals/campaign-service.js';
import { ReferralCampaign } from '../../shared/referrals/referral-campaign.entity.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import { registerGetReferralCampaignStats } from './get-referral-campaign-stats.js';
import {
  access,
  CreateReferralCampaignBody,
  REFERRAL_CAMPAIGN_EXAMPLE,
  REFERRAL_CAMPAIGN_LIST,
  ReferralCampaignIdParams,
  ReferralCampaignResource,
  tags,
  UpdateReferralCampaignBody,
} from './schema.js';

/** `/v1/referral_campaigns` (docs/referrals.md#referral-campaigns): what members' invites are part of. */
export function registerReferralCampaignRoutes(app: App, context: AppContext): void {
  const campaigns = collectionRoutes(app, context, {
    path: '/v1/referral_campaigns',
    noun: 'referral campaign',
    entity: ReferralCampaign,
    resource: ReferralCampaignResource,
    view: campaignView,
    example: REFERRAL_CAMPAIGN_EXAMPLE,
    params: ReferralCampaignIdParams,
    tags,
    access,
  });
  const { id: _id, createdAt: _c, updatedAt: _u, ...request } = REFERRAL_CAMPAIGN_EXAMPLE;
  campaigns.create({
    summary: 'Start a referral campaign',
    description:
      "A referral campaign: what members' invites show (`linkConfig`), the kind of invite code members get (`referralCodeType`), and the `tranches` a referrer's count of successful referrals reaches, each named in the REFERRAL_COMPLETED event of the referral that reached it. Tranche counts and names are distinct (400 naming the field). A tenant has one active campaign at most: creating an active one while another is active is 409 ConflictError naming it. `isActive` is false unless given.",
    body: CreateReferralCampaignBody,
    request,
    errors: [409],
    create: createCampaign,
  });
  campaigns.list({
    description: "The tenant's referral campaigns, newest first.",
    answer: 'a page of campaigns',
    spec: REFERRAL_CAMPAIGN_LIST,
  });
  campaigns.get({ answer: 'the campaign', find: findCampaign });
  campaigns.update({
    description:
      'Changes the fields given; `linkConfig` and `tranches` are replaced whole. Activating a campaign while another is active is 409 ConflictError naming the active one; `referralCodeType` changes only while the campaign has issued no invite code (409 otherwise). Codes already issued keep their invite links.',
    answer: 'the changed campaign',
    body: UpdateReferralCampaignBody,
    examples: { request: { isActive: false }, response: { ...REFERRAL_CAMPAIGN_EXAMPLE, isActive: false } },
    errors: [404, 409],
    update: updateCampaign,
  });
  registerGetReferralCampaignStats(app, context);
}
