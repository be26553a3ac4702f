import type { AppContext } from '../../shared/context.js';
import { campaignView, createCampaign } from '../../shared/referrals/campaign-service.js';
import { ReferralCampaign } from '../../shared/referrals/referral-campaign.entity.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import {
  access,
  CreateReferralCampaignBody,
  REFERRAL_CAMPAIGN_EXAMPLE,
  ReferralCampaignResource,
  tags,
} from './schema.js';

export function registerCreateReferralCampaign(app: App, context: AppContext): void {
  const { id: _id, createdAt: _c, updatedAt: _u, ...request } = REFERRAL_CAMPAIGN_EXAMPLE;
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/referral_campaigns',
    operationId: 'createReferralCampaign',
    description:
      "A referral campaign: what members' invites show (`linkConfig`), the kind of invite code members get (`referralCodeType`), and the `tranches` a referrer's count of successful referrals reaches, each named in the REFERRAL_COMPLETED event of the referral that reached it. Tranche counts and names are distinct (400 naming the field). A tenant has one active campaign at most: creating an active one while another is active is 409 ConflictError naming it. `isActive` is false unless given.",
    examples: { request, response: REFERRAL_CAMPAIGN_EXAMPLE },
    summary: 'Start a referral campaign',
    tags,
    access,
    idempotency: createsRecordOf(ReferralCampaign, campaignView),
    body: CreateReferralCampaignBody,
    responses: { 201: { description: 'created', data: ReferralCampaignResource } },
    errors: [409],
    handler: async ({ body }, c) =>
      campaignView(await createCampaign(context, entityManager(c), changedBy(c), body, c.var.reservedId)),
  });
}
