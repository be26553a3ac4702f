import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ReferralCampaign } from './referral-campaign.entity.js';
import { ReferralCode } from './referral-code.entity.js';
import { tenantOwned } from '../tenants/tenant-owned.js';

/** A click on an invite (docs/referrals.md#clicks), counted in its campaign's statistics. */
export const ReferralActivity = defineEntity({
  name: 'ReferralActivity',
  tableName: 'referral_activity',
  indexes: [{ properties: ['campaign'] }],
  properties: {
    ...tenantOwned(),
    code: p.manyToOne(ReferralCode).deleteRule('cascade'),
    campaign: p.manyToOne(ReferralCampaign).deleteRule('cascade'),
    source: p.string(),
    /** The sourceUserId (often an email address) as a keyed hash, never in the clear (source-user-hash.ts). */
    sourceUserHash: p.string().length(64),
    userAgent: p.string().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type ReferralActivity = InferEntity<typeof ReferralActivity>;
