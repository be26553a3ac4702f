import { memberConsentDetails, type MemberConsentDetails } from '../consents/read-member-consents.js';
import type { EntityManager } from '../platform/db/orm.js';
import { referralCodeUsedForRegistration, type ReferralDetails } from '../referrals/referral-member-details.js';
import type { User } from '../users/user.entity.js';
import { userView, type UserView } from '../users/user-view.js';
import type { RegisteredMember } from './register-member.js';

/**
 * A member as the member routes show it: its own fields, then what other features keep about it,
 * each read for a page of members in one query and keyed by member id (a member a feature keeps
 * nothing about has none of its fields). A feature that shows more of a member adds it here.
 */
export type MemberView = UserView & Partial<MemberConsentDetails & ReferralDetails>;

/**
 * Members as the member routes show them (docs/users.md#members). An event's subject and a
 * voucher's owner stay `userView` alone: those are read in bulk by the workers, and say who, not
 * everything about them.
 */
export async function memberViews(em: EntityManager, tenantId: string, users: User[]): Promise<MemberView[]> {
  const ids = users.map((user) => user.id);
  if (ids.length === 0) return [];
  // One after another: they share the request's connection.
  const consents = await memberConsentDetails(em, tenantId, ids);
  const referrals = await referralCodeUsedForRegistration(em, tenantId, ids);
  return users.map((user) => ({ ...userView(user), ...consents.get(user.id), ...referrals.get(user.id) }));
}

export async function memberView(em: EntityManager, user: User): Promise<MemberView> {
  return (await memberViews(em, user.tenant.id, [user]))[0]!;
}

/**
 * A member a registration has just stored, as the member routes show it: its consents read back
 * when it gave some (in the order every member view lists them), its referral as stored, and no
 * query for a registration that stored neither.
 */
export async function registeredMemberView(em: EntityManager, registered: RegisteredMember): Promise<MemberView> {
  const { user, consented, referral } = registered;
  const consents = consented ? (await memberConsentDetails(em, user.tenant.id, [user.id])).get(user.id) : undefined;
  return { ...userView(user), ...consents, ...referral };
}
