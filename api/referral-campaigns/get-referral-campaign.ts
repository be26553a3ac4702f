import type { AppContext } from '../../shared/context.js';
import { campaignView, findCampaign } from '../../shared/referrals/campaign-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import {
  access,
  REFERRAL_CAMPAIGN_EXAMPLE,
  ReferralCampaignIdParams,
  ReferralCampaignResource,
  tags,
} from './schema.js';

export function registerGetReferralCampaign(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/referral_campaigns/:id',
    operationId: 'getReferralCampaign',
    description: 'One referral campaign by its id.',
    examples: { response: REFERRAL_CAMPAIGN_EXAMPLE },
    summary: 'Read a referral campaign',
    tags,
    access,
    params: ReferralCampaignIdParams,
    responses: { 200: { description: 'the campaign', data: ReferralCampaignResource } },
    errors: [404],
    handler: async ({ params }, c) => campaignView(await findCampaign(entityManager(c), c.var.tenant.id, params.id)),
  });
}
