import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { campaignView } from '../../shared/referrals/campaign-service.js';
import { ReferralCampaign } from '../../shared/referrals/referral-campaign.entity.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, REFERRAL_CAMPAIGN_EXAMPLE, REFERRAL_CAMPAIGN_LIST, ReferralCampaignResource, tags } from './schema.js';

export function registerListReferralCampaigns(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/referral_campaigns',
    operationId: 'listReferralCampaigns',
    description:
      "The tenant's referral campaigns, newest first. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: { response: [REFERRAL_CAMPAIGN_EXAMPLE] },
    summary: 'List referral campaigns',
    tags,
    access,
    query: listQuery(REFERRAL_CAMPAIGN_LIST),
    responses: { 200: { description: 'a page of campaigns', data: Type.Array(ReferralCampaignResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, ReferralCampaign, REFERRAL_CAMPAIGN_LIST, query, campaignView),
  });
}
