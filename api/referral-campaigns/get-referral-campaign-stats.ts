import type { AppContext } from '../../shared/context.js';
import { findCampaign } from '../../shared/referrals/campaign-service.js';
import { campaignStats } from '../../shared/referrals/campaign-stats.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ReferralCampaignIdParams, ReferralCampaignStats, tags } from './schema.js';

export function registerGetReferralCampaignStats(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/referral_campaigns/:id/stats',
    operationId: 'getReferralCampaignStats',
    description:
      'How a campaign is doing: `clicks` recorded on its invite codes, `registrations` of members who used one, and `completedTranches`, the referrals that reached one of its tranches.',
    examples: { response: { clicks: 42, registrations: 7, completedTranches: 3 } },
    summary: "Read a referral campaign's statistics",
    tags,
    access,
    params: ReferralCampaignIdParams,
    responses: { 200: { description: 'the statistics', data: ReferralCampaignStats } },
    errors: [404],
    handler: async ({ params }, c) => {
      const em = entityManager(c);
      return campaignStats(em, await findCampaign(em, c.var.tenant.id, params.id));
    },
  });
}
