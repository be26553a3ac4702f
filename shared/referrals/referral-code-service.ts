import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '../platform/db/orm.js';
import { NotFoundError } from '../platform/errors/app-errors.js';
import type { User } from '../users/user.entity.js';
import { activeCampaign, campaignView } from './campaign-service.js';
import { drawInviteCode, inviteLinkOf, issuedFormOf } from './invite-codes.js';
import { ReferralCampaign } from './referral-campaign.entity.js';
import { ReferralCode } from './referral-code.entity.js';

/** How often a member's code is drawn again after colliding with another member's in the campaign. */
const MAX_DRAWS = 10;

/** rewards-interface's "Referral code record": the code, its campaign and its owner, the referrer. */
export function referralCodeView(code: ReferralCode, campaign: ReferralCampaign) {
  return {
    id: code.id,
    createdAt: code.createdAt.toISOString(),
    updatedAt: code.updatedAt.toISOString(),
    inviteCode: code.inviteCode,
    inviteLink: code.inviteLink ?? null,
    campaign: campaignView(campaign),
    referrer: { id: code.member.id },
  };
}

/**
 * The code of the tenant's active campaign that a person typed (at registration, on a click), with
 * its owner; null when no active campaign has it. Matched in the form the campaign's codes are
 * issued in (docs/referrals.md#invite-codes): a campaign's type is its codes' type, since it
 * changes only while none is issued.
 */
export async function findActiveInviteCode(
  em: EntityManager,
  tenantId: string,
  typed: string,
): Promise<ReferralCode | null> {
  const campaign = await activeCampaign(em, tenantId);
  if (!campaign) return null;
  return em.findOne(
    ReferralCode,
    { tenant: tenantId, campaign: campaign.id, inviteCode: issuedFormOf(campaign.referralCodeType, typed) },
    { populate: ['member'] },
  );
}

/**
 * The member's code in the tenant's active campaign (docs/referrals.md#invite-codes), created on
 * the first read; 404 when no campaign is active. Concurrent first reads insert with ON CONFLICT DO
 * NOTHING and read back the one that won; an insert that conflicted and left the member without a
 * code collided with another member's code, and draws again.
 */
export async function memberReferralCode(em: EntityManager, tenantId: string, member: User) {
  const campaign = await activeCampaign(em, tenantId);
  if (!campaign) throw noActiveCampaign();
  for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
    // The campaign read again with the code: a PATCH may have changed its type before the insert.
    const existing = await em.findOne(
      ReferralCode,
      { campaign: campaign.id, member: member.id },
      { populate: ['campaign'], refresh: true },
    );
    if (existing) return referralCodeView(existing, existing.campaign);
    await em.transactional((tx) => insertDrawnCode(tx, campaign.id, member.id, attempt));
  }
  throw new Error(`No free invite code for member ${member.id} after ${MAX_DRAWS} draws`);
}

/**
 * Inserts a code drawn for the campaign's type as it is at the insert: the campaign's row is held
 * FOR SHARE until the insert commits, and a PATCH of `referralCodeType` takes it FOR UPDATE before
 * counting the codes, so either the PATCH sees this code (409) or this draw reads the new type.
 */
async function insertDrawnCode(tx: EntityManager, campaignId: string, memberId: string, attempt: number) {
  const campaign = await tx.findOne(
    ReferralCampaign,
    { id: campaignId, isActive: true },
    { lockMode: LockMode.PESSIMISTIC_READ, refresh: true },
  );
  if (!campaign) throw noActiveCampaign();
  const tenantId = campaign.tenant.id;
  const inviteCode = drawInviteCode(campaign.referralCodeType, { tenantId, memberId, attempt });
  const inviteLink =
    campaign.referralCodeType === 'LINK' ? inviteLinkOf(campaign.linkConfig.desktopUrl, inviteCode) : null;
  const now = new Date();
  await tx.execute(
    `insert into referral_code (id, tenant_id, campaign_id, member_id, invite_code, invite_link, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
    [randomUUID(), tenantId, campaign.id, memberId, inviteCode, inviteLink, now, now],
  );
}

function noActiveCampaign(): NotFoundError {
  return new NotFoundError('No referral campaign is active: there is no invite code to hand out');
}
