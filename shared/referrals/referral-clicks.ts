import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import { fieldBadRequestError } from '../platform/errors/app-errors.js';
import { ReferralActivity } from './referral-activity.entity.js';
import { findActiveInviteCode } from './referral-code-service.js';
import { hashedSourceUser, type SourceUserKey } from './source-user-hash.js';

/** POST /v1/referral_activities: the body, always a CLICK there. */
export interface ClickInput {
  inviteCode: string;
  activityType: 'CLICK';
  source: string;
  sourceUserId: string;
  userAgent?: string;
}

/**
 * Records a click on an invite of the tenant's active campaign (docs/referrals.md#clicks), which
 * counts in the campaign's statistics; whoever clicked is kept as the keyed hash of its
 * sourceUserId. A code of no active campaign is 400, naming the field.
 */
export async function recordClick(
  em: EntityManager,
  sourceUserKey: SourceUserKey,
  tenantId: string,
  input: ClickInput,
  id: string = randomUUID(),
): Promise<ReferralActivity> {
  const code = await findActiveInviteCode(em, tenantId, input.inviteCode);
  if (!code)
    throw fieldBadRequestError(
      'inviteCode',
      input.inviteCode,
      'exists',
      `No active referral campaign has the invite code "${input.inviteCode}"`,
    );
  const click = em.create(ReferralActivity, {
    id,
    tenant: tenantId,
    code: code.id,
    campaign: code.campaign.id,
    source: input.source,
    sourceUserHash: hashedSourceUser(sourceUserKey, tenantId, input.sourceUserId),
    userAgent: input.userAgent ?? null,
  });
  await em.flush();
  return click;
}

/** A click as docs/referrals.md#clicks shows it: not its sourceUserId, which is kept only as a keyed hash. */
export function clickView(click: ReferralActivity) {
  return {
    id: click.id,
    activityType: 'CLICK' as const,
    inviteCode: click.code.inviteCode,
    source: click.source,
    userAgent: click.userAgent ?? null,
    createdAt: click.createdAt.toISOString(),
  };
}
