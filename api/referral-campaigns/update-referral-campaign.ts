import type { AppContext } from '../../shared/context.js';
import { campaignView, updateCampaign } from '../../shared/referrals/campaign-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import {
  access,
  REFERRAL_CAMPAIGN_EXAMPLE,
  ReferralCampaignIdParams,
  ReferralCampaignResource,
  tags,
  UpdateReferralCampaignBody,
} from './schema.js';

export function registerUpdateReferralCampaign(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/referral_campaigns/:id',
    operationId: 'updateReferralCampaign',
    description:
      'Changes the fields given; `linkConfig` and `tranches` are replaced whole. Activating a campaign while another is active is 409 ConflictError naming the active one; `referralCodeType` changes only while the campaign has issued no invite code (409 otherwise). Codes already issued keep their invite links.',
    examples: { request: { isActive: false }, response: { ...REFERRAL_CAMPAIGN_EXAMPLE, isActive: false } },
    summary: 'Change a referral campaign',
    tags,
    access,
    params: ReferralCampaignIdParams,
    body: UpdateReferralCampaignBody,
    responses: { 200: { description: 'the changed campaign', data: ReferralCampaignResource } },
    errors: [404, 409],
    handler: async ({ params, body }, c) =>
      campaignView(await updateCampaign(context, entityManager(c), changedBy(c), params.id, body)),
  });
}
