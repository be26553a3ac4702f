import type { AppContext } from '../../shared/context.js';
import { memberReferralCode } from '../../shared/referrals/referral-code-service.js';
import { entityManager, type App } from '../app-env.js';
import { REFERRAL_CODE_EXAMPLE, ReferralCodeResource, tags } from '../referral-campaigns/schema.js';
import { defineRoute } from '../routes/define-route.js';
import { memberOf, memberRoutes } from '../routes/member-target.js';
import { UserIdParams } from '../users/schema.js';

const WHAT =
  "in the active referral campaign, created on the first read (404 when no campaign is active). Its form follows the campaign's `referralCodeType`; a LINK campaign's code also has an `inviteLink` built from `linkConfig.desktopUrl`. `referrer` is the code's owner.";

/** docs/referrals.md#invite-codes: a member's invite code, served as its wallet is (get-wallet.ts). */
export function registerGetReferralCode(app: App, context: AppContext): void {
  const routes = memberRoutes(
    'referral_code',
    {
      summary: 'The invite code of the member the user token speaks for',
      operationId: 'getOwnReferralCode',
      description: `The invite code of the member whose \`authIdentifier\` is the user token's \`sub\`, ${WHAT}`,
    },
    {
      summary: "A member's invite code",
      operationId: 'getUserReferralCode',
      description: `A member's invite code, the member found by its id, \`authIdentifier\` or account number, ${WHAT}`,
    },
  );
  for (const route of routes) {
    defineRoute(app, context, {
      method: 'get',
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      examples: { response: REFERRAL_CODE_EXAMPLE },
      tags,
      access: route.access,
      ...(route.byId ? { params: UserIdParams } : {}),
      responses: { 200: { description: "the member's code record", data: ReferralCodeResource } },
      errors: [404],
      handler: async (_input, c) => memberReferralCode(entityManager(c), c.var.tenant.id, await memberOf(c)),
    });
  }
}
