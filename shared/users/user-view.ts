import type { User } from './user.entity.js';

/**
 * A member as the API shows it (docs/users.md#members), alone and as an event's subject; its
 * fingerprint until it is erased.
 */
export function userView(user: User) {
  return {
    ...memberStanding(user),
    profile: user.profile,
    ...(user.flags ? { flags: user.flags } : {}),
    linkedVenues: user.linkedVenues,
    ...(user.fingerprint ? { fingerprint: user.fingerprint } : {}),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export type UserView = ReturnType<typeof userView>;

/**
 * What names a member, and whether it is restricted: what an erasure keeps (docs/users.md#erasure),
 * and so all the audit log keeps of a member besides its venues (member-audit.ts).
 */
export function memberStanding(user: User) {
  return {
    id: user.id,
    accountNumber: user.accountNumber,
    authIdentifier: user.authIdentifier,
    externalIdentifier: user.externalIdentifier ?? null,
    isRestricted: user.isRestricted,
  };
}
