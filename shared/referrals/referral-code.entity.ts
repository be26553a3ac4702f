import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';
import { ReferralCampaign } from './referral-campaign.entity.js';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

/**
 * A member's invite code in one campaign (docs/referrals.md#invite-codes): one per member and
 * campaign, and a code names one member within its campaign. Both unique indexes settle races: two
 * first reads of a member's code, and two members drawing the same random code.
 */
export const ReferralCode = defineEntity({
  name: 'ReferralCode',
  tableName: 'referral_code',
  uniques: [{ properties: ['campaign', 'member'] }, { properties: ['campaign', 'inviteCode'] }],
  indexes: [{ properties: ['tenant', 'inviteCode'] }],
  properties: {
    ...tenantOwned(),
    campaign: p.manyToOne(ReferralCampaign).deleteRule('cascade'),
    /** The code's owner: the referrer of whoever registers with it. */
    member: p.manyToOne(User).deleteRule('cascade'),
    inviteCode: p.string(),
    /** The invite link of a LINK campaign; null for the other types. */
    inviteLink: p.text().nullable(),
    ...timestampProperties(),
  },
});

export type ReferralCode = InferEntity<typeof ReferralCode>;
