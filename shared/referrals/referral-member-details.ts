import type { EntityManager } from '../platform/db/orm.js';
import { referralCodeView } from './referral-code-service.js';
import { Referral } from './referral.entity.js';

export interface ReferralDetails {
  referralCodeUsedForRegistration: ReturnType<typeof referralCodeView>;
}

/**
 * The member view's `referralCodeUsedForRegistration` (rewards-interface "User"): the code record,
 * with its campaign and referrer, a referred member registered with. Members who were not referred
 * have none.
 */
export async function referralCodeUsedForRegistration(
  em: EntityManager,
  tenantId: string,
  userIds: string[],
): Promise<Map<string, ReferralDetails>> {
  const referrals = await em.find(
    Referral,
    { tenant: tenantId, referred: { $in: userIds } },
    { populate: ['code', 'campaign'] },
  );
  return new Map(
    referrals.map((referral) => [
      referral.referred.id,
      { referralCodeUsedForRegistration: referralCodeView(referral.code, referral.campaign) },
    ]),
  );
}
