import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

/** How a campaign's invite codes look (docs/referrals.md#invite-codes). */
export const REFERRAL_CODE_TYPES = ['LINK', 'CODE', 'STATIC_USER_CODE', 'STATIC_USER_WORD_CODE'] as const;
export type ReferralCodeType = (typeof REFERRAL_CODE_TYPES)[number];

/** What an invite link shows where it is shared, and where it leads on each kind of device. */
export interface LinkConfig {
  title: string;
  description: string;
  desktopUrl: string;
  imageUrl: string | null;
  iosUrl: string | null;
  androidUrl: string | null;
}

/** A step of a campaign: the referrer's `referrals`-th successful referral reaches the tranche `name`. */
export interface Tranche {
  referrals: number;
  name: string;
}

/** The partial unique index that leaves a tenant one active campaign at most. */
export const ONE_ACTIVE_INDEX = 'referral_campaign_one_active';

/**
 * A referral campaign (docs/referrals.md#referral-campaigns). A tenant has at most one active
 * campaign, whose codes members hand out: the partial unique index settles two activations racing.
 */
export const ReferralCampaign = defineEntity({
  name: 'ReferralCampaign',
  tableName: 'referral_campaign',
  indexes: [
    { properties: ['tenant', 'createdAt'] },
    {
      name: ONE_ACTIVE_INDEX,
      expression: `create unique index "${ONE_ACTIVE_INDEX}" on "referral_campaign" ("tenant_id") where "is_active"`,
    },
  ],
  properties: {
    ...tenantOwned(),
    /** As long as validation lets it be (1 to 256 characters), as are sourceUserId and a tranche's name. */
    name: p.string().length(256),
    linkConfig: p.json<LinkConfig>(),
    isActive: p.boolean(),
    referralCodeType: p.enum([...REFERRAL_CODE_TYPES]),
    tranches: p.json<Tranche[]>(),
    ...timestampProperties(),
  },
});

export type ReferralCampaign = InferEntity<typeof ReferralCampaign>;
