import { isDeepStrictEqual } from 'node:util';
import type { Profile, User } from './user.entity.js';
import { memberStanding } from './user-view.js';

/** What an erasure removes (docs/users.md#erasure): the audit log names these fields, never their values. */
export interface PersonalData {
  profile: Profile;
  flags: Record<string, unknown> | null;
}

export const NO_PERSONAL_DATA: PersonalData = { profile: {}, flags: null };

export function personalDataOf(user: User): PersonalData {
  return { profile: user.profile, flags: user.flags ?? null };
}

/**
 * A member as the audit log keeps it (docs/users.md#audit): what an erasure keeps (its ids,
 * account number, externalIdentifier, restriction, venues), never the profile or the flags, so an
 * erasure leaves no personal data behind in the log, including entries written before it.
 */
export function memberAuditView(user: User) {
  return {
    ...memberStanding(user),
    linkedVenues: user.linkedVenues,
    erasedAt: user.erasedAt?.toISOString() ?? null,
  };
}

/**
 * A member's state after a change, for its audit entry: the audit view, and the names of the
 * personal fields whose values the change set, changed or removed (`profile.emailAddress`, `flags`).
 */
export function memberAuditAfter(user: User, before: PersonalData) {
  const after = personalDataOf(user);
  const names = new Set([...Object.keys(before.profile), ...Object.keys(after.profile)]);
  const changed = [...names]
    .filter((name) => !isDeepStrictEqual(before.profile[name], after.profile[name]))
    .map((name) => `profile.${name}`);
  if (!isDeepStrictEqual(before.flags, after.flags)) changed.push('flags');
  return { ...memberAuditView(user), changedPersonalFields: changed.sort() };
}

/** docs/api-conventions.md#audit-log: a change of `isRestricted` is named for it, whatever else the PATCH changed. */
export function memberUpdateAction(wasRestricted: boolean, user: User): string {
  if (wasRestricted === user.isRestricted) return 'user.updated';
  return user.isRestricted ? 'user.restricted' : 'user.unrestricted';
}
