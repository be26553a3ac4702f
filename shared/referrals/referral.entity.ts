import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';
import { ReferralCampaign } from './referral-campaign.entity.js';
import { ReferralCode } from './referral-code.entity.js';
import { tenantOwned } from '../tenants/tenant-owned.js';

/**
 * A registration with an invite code (docs/referrals.md#referred-registrations). A member is
 * referred once; a source and sourceUserId sign up once per code, the unique index on the pair's
 * keyed hash settling two racing sign-ups. The two events' ids are allocated and stored with it before they are queued,
 * so queueing them again (the recovery sweep) registers nothing twice.
 */
export const Referral = defineEntity({
  name: 'Referral',
  tableName: 'referral',
  uniques: [{ properties: ['referred'] }, { properties: ['code', 'source', 'sourceUserHash'] }],
  indexes: [
    { properties: ['campaign', 'referrer'] },
    // The recovery sweep looks for referrals whose events were never registered, by creation time.
    { properties: ['createdAt'] },
  ],
  properties: {
    ...tenantOwned(),
    code: p.manyToOne(ReferralCode).deleteRule('cascade'),
    campaign: p.manyToOne(ReferralCampaign).deleteRule('cascade'),
    referrer: p.manyToOne(User).deleteRule('cascade'),
    referred: p.manyToOne(User).deleteRule('cascade'),
    source: p.string(),
    /** The sourceUserId (often an email address) as a keyed hash, never in the clear (source-user-hash.ts). */
    sourceUserHash: p.string().length(64),
    /** Erased with the referred member's profile, as personal data. */
    userAgent: p.string().nullable(),
    ipAddress: p.string().nullable(),
    /** The name of the campaign's tranche this referral reached, if it reached one. */
    tranche: p.string().length(256).nullable(),
    /** REFERRED_REGISTRATION's id; null when the tenant had the type deactivated. */
    registrationEventId: p.bigint('number').nullable(),
    /** REFERRAL_COMPLETED's id; null when the tenant had the type deactivated. */
    completedEventId: p.bigint('number').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type Referral = InferEntity<typeof Referral>;
