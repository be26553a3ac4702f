import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { REFERRAL_COMPLETED, REFERRED_REGISTRATION } from '../kernel/system-event-names.js';
import type { EventIdAllocator } from '../events/event-ids.js';
import {
  intrinsicEventId,
  queueIntrinsicEvents,
  type IntrinsicEvent,
  type IntrinsicEventDependencies,
} from '../events/queue-intrinsic-event.js';
import { lockNames } from '../platform/db/advisory-locks.js';
import type { EntityManager } from '../platform/db/orm.js';
import { ConflictError, fieldBadRequestError } from '../platform/errors/app-errors.js';
import { withoutAbsent } from '../platform/json/without-absent.js';
import type { User } from '../users/user.entity.js';
import { findActiveInviteCode, referralCodeView } from './referral-code-service.js';
import type { ReferralDetails } from './referral-member-details.js';
import { Referral } from './referral.entity.js';
import { hashedSourceUser, type SourceUserKey } from './source-user-hash.js';

/** The registration body's referral fields (rewards-interface: each requires the other). */
export interface ReferredRegistrationInput {
  referralInviteCode?: string;
  referralActivity?: {
    source: string;
    sourceUserId: string;
    activityType: 'REGISTER';
    userAgent?: string;
    ipAddress?: string;
  };
}

export interface ReferralDependencies extends IntrinsicEventDependencies {
  eventIds: EventIdAllocator;
  sourceUserKey: SourceUserKey;
}

/** What registration does with its referral fields, in three steps around its transaction. */
export interface ReferredRegistration {
  /** In the registration's transaction, once the member is created: checks and stores the referral. */
  record(tx: EntityManager, member: User): Promise<void>;
  /** Once recorded: the member view's referral details, as stored; none when the member was not referred. */
  details(): ReferralDetails | undefined;
  /** After the commit: queues the referral's events. */
  report(): Promise<void>;
}

const NOT_REFERRED: ReferredRegistration = {
  record: async () => {},
  details: () => undefined,
  report: async () => {},
};

/**
 * A registration with an invite code (docs/referrals.md#referred-registrations). Both events' ids
 * are allocated first, before the registration's transaction, as reviews take theirs: the
 * allocator and the event type directory use connections of their own, which registrations
 * waiting on a lock, each holding one, could leave none of. Unused ids are gaps, never reused.
 * `record` locks the referrer's referrals in the campaign by name, so two registrations with one
 * referrer's code take turns and count its referrals one after the other; the unique index on
 * (code, source, the sourceUserId's keyed hash) keeps a person to one sign-up per code. The ids
 * are kept with the referral, so `report` and the recovery sweep queue the same events, which are
 * registered once.
 */
export async function prepareReferredRegistration(
  deps: ReferralDependencies,
  tenantId: string,
  input: ReferredRegistrationInput,
): Promise<ReferredRegistration> {
  const { referralInviteCode: inviteCode, referralActivity: activity } = input;
  if (inviteCode === undefined || activity === undefined) return NOT_REFERRED;
  const registrationEventId = await intrinsicEventId(deps, tenantId, REFERRED_REGISTRATION);
  const completedEventId = await intrinsicEventId(deps, tenantId, REFERRAL_COMPLETED);
  const sourceUserHash = hashedSourceUser(deps.sourceUserKey, tenantId, activity.sourceUserId);
  let referral: Referral | undefined;
  return {
    async record(tx, member) {
      referral = await storeReferral(tx, member, inviteCode, activity, sourceUserHash, {
        registrationEventId,
        completedEventId,
      });
    },
    details() {
      return referral && { referralCodeUsedForRegistration: referralCodeView(referral.code, referral.campaign) };
    },
    async report() {
      if (referral) await reportReferral(deps, referral);
    },
  };
}

async function storeReferral(
  tx: EntityManager,
  member: User,
  inviteCode: string,
  activity: NonNullable<ReferredRegistrationInput['referralActivity']>,
  sourceUserHash: string,
  eventIds: { registrationEventId: number | null; completedEventId: number | null },
): Promise<Referral> {
  const tenantId = member.tenant.id;
  const code = await findActiveInviteCode(tx, tenantId, inviteCode);
  if (!code)
    throw fieldBadRequestError(
      'referralInviteCode',
      inviteCode,
      'exists',
      `No active referral campaign has the invite code "${inviteCode}"`,
    );
  if (isSamePerson(code.member, member))
    throw fieldBadRequestError(
      'referralInviteCode',
      inviteCode,
      'notOwn',
      'A member cannot register with an invite code of their own',
    );
  const campaign = code.campaign;
  await lockNames(tx, [{ scope: `referrals:${campaign.id}`, value: code.member.id }]);
  // Whether this person signed up with the code before, and how many referrals the referrer has: one query.
  const [counted] = await tx.execute<{ signed_up: boolean; referrals: number }[]>(
    `select exists (select 1 from referral where code_id = ? and source = ? and source_user_hash = ?) as signed_up,
            (select count(*)::int from referral where campaign_id = ? and referrer_id = ?) as referrals`,
    [code.id, activity.source, sourceUserHash, campaign.id, code.member.id],
  );
  if (counted?.signed_up) throw alreadySignedUp(activity);
  const count = (counted?.referrals ?? 0) + 1;
  const referral = tx.create(Referral, {
    id: randomUUID(),
    tenant: tenantId,
    code: code.id,
    campaign: campaign.id,
    referrer: code.member.id,
    referred: member.id,
    source: activity.source,
    sourceUserHash,
    userAgent: activity.userAgent ?? null,
    ipAddress: activity.ipAddress ?? null,
    tranche: campaign.tranches.find((tranche) => tranche.referrals === count)?.name ?? null,
    ...eventIds,
  });
  try {
    await tx.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw alreadySignedUp(activity);
    throw error;
  }
  return referral;
}

/**
 * Queues (again) a referral's REFERRED_REGISTRATION, the new member as subject, and
 * REFERRAL_COMPLETED, the referrer as subject, in one round trip: their ids are the referral's, so
 * each is registered once however often this runs.
 */
export async function reportReferral(deps: IntrinsicEventDependencies, referral: Referral): Promise<void> {
  const common = { tenantId: referral.tenant.id, reportedAt: referral.createdAt, occurredAt: null };
  const events: IntrinsicEvent[] = [];
  if (referral.registrationEventId !== null && referral.registrationEventId !== undefined)
    events.push({
      ...common,
      typeName: REFERRED_REGISTRATION,
      eventId: referral.registrationEventId,
      userId: referral.referred.id,
      payload: { campaignId: referral.campaign.id, referrerId: referral.referrer.id },
    });
  if (referral.completedEventId !== null && referral.completedEventId !== undefined)
    events.push({
      ...common,
      typeName: REFERRAL_COMPLETED,
      eventId: referral.completedEventId,
      userId: referral.referrer.id,
      // docs/events.md#system-event-types: `tranche` is omitted when the referral reached none.
      payload: withoutAbsent({
        campaignId: referral.campaign.id,
        referredUserId: referral.referred.id,
        tranche: referral.tranche,
      }),
    });
  await queueIntrinsicEvents(deps, events);
}

/**
 * One's own code: the code's owner and the new member share an email address (whatever its case)
 * or a telephone number. (An owner's authIdentifier is never the new member's: registration
 * answers a taken one 409 before the referral is looked at.)
 */
function isSamePerson(owner: User, member: User): boolean {
  const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a === b;
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : undefined);
  return (
    same(lower(owner.profile.emailAddress), lower(member.profile.emailAddress)) ||
    same(owner.profile.telephoneNumber, member.profile.telephoneNumber)
  );
}

function alreadySignedUp(activity: { source: string; sourceUserId: string }): ConflictError {
  return new ConflictError(
    `${activity.source} user "${activity.sourceUserId}" has already signed up with this invite code`,
    {
      data: {
        fields: ['referralActivity.source', 'referralActivity.sourceUserId'],
        explanation: 'A source and sourceUserId sign up once with a given invite code',
      },
    },
  );
}
