import { memberConsentDetails } from '../consents/read-member-consents.js';
import type { EntityManager } from '../platform/db/orm.js';
import { referralCodeUsedForRegistration } from '../referrals/referral-member-details.js';
import type { User } from '../users/user.entity.js';
import { userView, type UserView } from '../users/user-view.js';

/**
 * What another feature keeps about members and shows in the member routes' view (consents, the
 * referral a member registered with): read for a page of members in one query, keyed by member id.
 * A member it keeps nothing about is absent from the map.
 */
export type MemberDetailsReader = (
  em: EntityManager,
  tenantId: string,
  userIds: string[],
) => Promise<Map<string, Record<string, unknown>>>;

/** The details every member view carries, in the order their fields follow the member's own. */
const MEMBER_DETAILS: MemberDetailsReader[] = [memberConsentDetails, referralCodeUsedForRegistration];

/** A member's own fields, and the details other features keep about it (MEMBER_DETAILS). */
export type MemberView = UserView & Record<string, unknown>;

/**
 * Members as the member routes show them (docs/users.md#members): each one's own fields and the
 * details other features keep. An event's subject and a voucher's owner stay `userView` alone:
 * those are read in bulk by the workers, and say who, not everything about them.
 */
export async function memberViews(em: EntityManager, tenantId: string, users: User[]): Promise<MemberView[]> {
  const ids = users.map((user) => user.id);
  const details: Map<string, Record<string, unknown>>[] = [];
  // One after another: they share the request's connection.
  for (const read of MEMBER_DETAILS) details.push(ids.length ? await read(em, tenantId, ids) : new Map());
  return users.map((user) => ({
    ...userView(user),
    ...Object.assign({}, ...details.map((detail) => detail.get(user.id) ?? {})),
  }));
}

export async function memberView(em: EntityManager, user: User): Promise<MemberView> {
  return (await memberViews(em, user.tenant.id, [user]))[0]!;
}
