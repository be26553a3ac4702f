import { Type, type Static, type TObject } from 'typebox';
import { declaredOnly } from '../platform/validation/declared-fields.js';
import { TIMESTAMPS } from '../platform/validation/timestamps.js';
import type { User } from './user.entity.js';

/**
 * The fields of a member as the API shows it, besides its timestamps: what this floor knows of a
 * member. The API's `User` adds what higher floors add (consents, the invite code it registered with).
 */
export const MEMBER_FIELDS = {
  id: Type.String({ format: 'uuid' }),
  accountNumber: Type.Integer(),
  authIdentifier: Type.String(),
  externalIdentifier: Type.Union([Type.String(), Type.Null()]),
  isRestricted: Type.Boolean(),
  profile: Type.Record(Type.String(), Type.Unknown()),
  flags: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  linkedVenues: Type.Array(Type.Object({ id: Type.String() })),
  fingerprint: Type.Optional(
    Type.String({
      pattern: '^[0-9a-f]{32}$',
      description:
        "a stable identifier of the member within the tenant that reveals nothing of it: a keyed hash of the tenant's and the member's ids, 32 hex characters. It stays through profile changes; an erased member has none",
    }),
  ),
};

/** A member as this floor shows it: its fields and timestamps. */
export type UserViewSchema = TObject<typeof MEMBER_FIELDS & typeof TIMESTAMPS>;
export type UserView = Static<UserViewSchema>;

const shownAsUser = declaredOnly<UserView>();

/**
 * A member as the API shows it (docs/users.md#members), alone and as an event's subject; its
 * fingerprint until it is erased.
 */
export function userView(user: User): UserView {
  return shownAsUser({
    ...memberStanding(user),
    profile: user.profile,
    ...(user.flags ? { flags: user.flags } : {}),
    linkedVenues: user.linkedVenues,
    ...(user.fingerprint ? { fingerprint: user.fingerprint } : {}),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  });
}

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
