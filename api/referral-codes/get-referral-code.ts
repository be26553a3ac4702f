import type { AppContext } from '../../shared/context.js';
import { memberReferralCode } from '../../shared/referrals/referral-code-service.js';
import { entityManager, type App } from '../app-env.js';
import { REFERRAL_CODE_EXAMPLE, ReferralCodeResource, tags } from '../referral-campaigns/schema.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';

const WHAT =
  "in the active referral campaign, created on the first read (404 when no campaign is active). Its form follows the campaign's `referralCodeType`; a LINK campaign's code also has an `inviteLink` built from `linkConfig.desktopUrl`. `referrer` is the code's owner.";

/** docs/referrals.md#invite-codes: a member's invite code, served as its wallet is (get-wallet.ts). */
export function registerGetReferralCode(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: 'referral_code',
    own: {
      summary: 'The invite code of the member the user token speaks for',
      operationId: 'getOwnReferralCode',
      description: `The invite code of the member whose \`authIdentifier\` is the user token's \`sub\`, ${WHAT}`,
    },
    anyMember: {
      summary: "A member's invite code",
      operationId: 'getUserReferralCode',
      description: `A member's invite code, the member found by its id, \`authIdentifier\` or account number, ${WHAT}`,
    },
    method: 'get',
    examples: { response: REFERRAL_CODE_EXAMPLE },
    tags,
    responses: { 200: { description: "the member's code record", data: ReferralCodeResource } },
    errors: [404],
    handler: async (_input, c) => memberReferralCode(entityManager(c), c.var.tenant.id, await memberOf(c)),
  });
}
