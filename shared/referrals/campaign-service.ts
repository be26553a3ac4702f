import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedRecords } from '../audit/audited-records.js';
import type { ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { ConflictError, fieldError } from '../platform/errors/app-errors.js';
import {
  ONE_ACTIVE_INDEX,
  ReferralCampaign,
  type LinkConfig,
  type ReferralCodeType,
  type Tranche,
} from './referral-campaign.entity.js';
import { ReferralCode } from './referral-code.entity.js';

/** The body of POST /v1/referral_campaigns; `linkConfig`'s optional addresses may be left out. */
export interface CampaignInput {
  name: string;
  linkConfig: Omit<LinkConfig, 'imageUrl' | 'iosUrl' | 'androidUrl'> & Partial<LinkConfig>;
  isActive?: boolean;
  referralCodeType: ReferralCodeType;
  tranches?: Tranche[];
}

/** A campaign as the API shows it, alone and inside a referral code record (rewards-interface). */
export function campaignView(campaign: ReferralCampaign) {
  return {
    id: campaign.id,
    name: campaign.name,
    createdAt: campaign.createdAt.toISOString(),
    updatedAt: campaign.updatedAt.toISOString(),
    linkConfig: campaign.linkConfig,
    isActive: campaign.isActive,
    tranches: campaign.tranches,
    referralCodeType: campaign.referralCodeType,
  };
}

const campaigns = auditedRecords({ resourceType: 'referral_campaign', entity: ReferralCampaign, view: campaignView });

export async function createCampaign(
  deps: AuditDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: CampaignInput,
  id: string = randomUUID(),
): Promise<ReferralCampaign> {
  return oneActiveAtATime(em, by.tenantId, () =>
    campaigns.create(deps, em, by, id, async (tx, owned) => {
      await checkOnlyActive(tx, by.tenantId, id, input.isActive ?? false);
      const campaign = tx.create(ReferralCampaign, {
        ...owned,
        name: input.name,
        linkConfig: completeLinkConfig(input.linkConfig),
        isActive: input.isActive ?? false,
        referralCodeType: input.referralCodeType,
        tranches: checkedTranches(input.tranches ?? []),
      });
      return campaign;
    }),
  );
}

/**
 * PATCH: the fields given replace the stored ones (`linkConfig` and `tranches` whole). A code type
 * is what the campaign's issued codes look like, so it changes only while none is issued.
 */
export async function updateCampaign(
  deps: AuditDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: Partial<CampaignInput>,
): Promise<ReferralCampaign> {
  return oneActiveAtATime(em, by.tenantId, () =>
    campaigns.update(deps, em, by, id, async (tx, campaign) => {
      await checkOnlyActive(tx, by.tenantId, campaign.id, changes.isActive ?? campaign.isActive);
      if (changes.referralCodeType !== undefined && changes.referralCodeType !== campaign.referralCodeType) {
        // Held until the commit: a first read of a code waits, then draws the new type (referral-code-service.ts).
        await tx.lock(campaign, LockMode.PESSIMISTIC_WRITE);
        if (await tx.count(ReferralCode, { campaign: campaign.id }))
          throw new ConflictError(
            `Campaign "${campaign.name}" has issued invite codes: its referralCodeType can no longer change`,
            { data: { fields: ['referralCodeType'] } },
          );
      }
      copyWritableFields(
        campaign,
        {
          ...changes,
          linkConfig: changes.linkConfig && completeLinkConfig(changes.linkConfig),
          tranches: changes.tranches && checkedTranches(changes.tranches),
        },
        ['name', 'linkConfig', 'isActive', 'referralCodeType', 'tranches'],
      );
    }),
  );
}

export const findCampaign = campaigns.find;

/** The tenant's active campaign, whose codes members hand out; null when none is active. */
export function activeCampaign(em: EntityManager, tenantId: string): Promise<ReferralCampaign | null> {
  return em.findOne(ReferralCampaign, { tenant: tenantId, isActive: true });
}

/**
 * A tenant runs one campaign at a time: activating another while one is active is 409, naming it
 * (the partial unique index refuses what two racing activations would leave). Checked before the
 * change is applied: a query after it would flush it first, and the index would answer instead.
 */
async function checkOnlyActive(
  tx: EntityManager,
  tenantId: string,
  campaignId: string,
  willBeActive: boolean,
): Promise<void> {
  if (!willBeActive) return;
  const active = await tx.findOne(ReferralCampaign, { tenant: tenantId, isActive: true, id: { $ne: campaignId } });
  if (active) throw activeCampaignConflict(active);
}

/**
 * Two activations racing both pass `checkOnlyActive`, and the one-active index refuses the later
 * commit: its answer is the same 409 naming the campaign that won, read once the refused
 * transaction is over.
 */
async function oneActiveAtATime(
  em: EntityManager,
  tenantId: string,
  change: () => Promise<ReferralCampaign>,
): Promise<ReferralCampaign> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException) || !isOneActiveViolation(error)) throw error;
    const active = await activeCampaign(em.fork(), tenantId);
    throw active ? activeCampaignConflict(active) : error;
  }
}

function isOneActiveViolation(error: UniqueConstraintViolationException): boolean {
  return (error as { constraint?: unknown }).constraint === ONE_ACTIVE_INDEX;
}

function activeCampaignConflict(active: ReferralCampaign): ConflictError {
  return new ConflictError(
    `Campaign "${active.name}" (${active.id}) is active: deactivate it before activating another`,
    { data: { fields: ['isActive'], activeCampaignId: active.id } },
  );
}

function completeLinkConfig(config: CampaignInput['linkConfig']): LinkConfig {
  return {
    title: config.title,
    description: config.description,
    desktopUrl: config.desktopUrl,
    imageUrl: config.imageUrl ?? null,
    iosUrl: config.iosUrl ?? null,
    androidUrl: config.androidUrl ?? null,
  };
}

/**
 * Each tranche is reached by one count of referrals, so counts and names are distinct: a tranche
 * named twice, or two tranches of one count, would leave REFERRAL_COMPLETED's `tranche` ambiguous.
 * Kept in the order of their counts.
 */
function checkedTranches(tranches: Tranche[]): Tranche[] {
  tranches.forEach((tranche, index) => {
    const earlier = tranches.slice(0, index);
    if (earlier.some((other) => other.referrals === tranche.referrals))
      throw fieldError(
        `tranches[${index}].referrals`,
        tranche.referrals,
        'unique',
        `Two tranches are reached at ${tranche.referrals} referrals: each count names one tranche`,
      );
    if (earlier.some((other) => other.name === tranche.name))
      throw fieldError(`tranches[${index}].name`, tranche.name, 'unique', `Two tranches are named "${tranche.name}"`);
  });
  return tranches.map(({ referrals, name }) => ({ referrals, name })).sort((a, b) => a.referrals - b.referrals);
}
