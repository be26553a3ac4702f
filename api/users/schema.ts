import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type } from 'typebox';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { ReferralCodeResource } from '../referral-campaigns/schema.js';
import { MemberConsentResource } from '../../shared/consents/consent-resource.js';
import { ReferralActivityFields } from '../../shared/referrals/referral-activity-fields.js';
import type { MemberReference } from '../../shared/users/lookup-user.js';
import { Profile, ProfileChanges } from '../../shared/users/profile.js';
import { MEMBER_FIELDS } from '../../shared/users/user-view.js';

/** A member's answer to one consent type, at registration and on PATCH /users/me/consents. */
export const ConsentChoice = Type.Object(
  {
    type: Type.Object(
      { id: Type.String({ minLength: 1, description: "the consent type's id" }) },
      {
        additionalProperties: false,
      },
    ),
    checked: Type.Boolean({ description: 'true gives the consent, false withholds or withdraws it' }),
    version: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "the version of the type's text the member was shown; when it is no longer the current one the request is 409 ConflictError, so the new text is shown and asked again. Without it, the current version is recorded",
      }),
    ),
  },
  { additionalProperties: false, title: 'ConsentChoice' },
);

export const ConsentChoices = Type.Array(ConsentChoice, {
  maxItems: 100,
  title: 'ConsentChoices',
  description: 'the consents to give (`checked: true`) or withhold (`checked: false`), each type at most once',
});

/** The tenant's venues a member is linked to (docs/users.md#members), set at registration and by an admin's PATCH. */
const LinkedVenues = Type.Array(Type.Object({ id: Type.String({ minLength: 1 }) }, { additionalProperties: false }), {
  maxItems: 100,
  description:
    "the venues of the tenant the member is linked to, replaced whole; an id that is no venue of the tenant's is 400",
});

/** rewards-interface's `referralActivity` of a registration: always REGISTER there. */
const RegistrationReferralActivity = Type.Object(
  { ...ReferralActivityFields, activityType: Type.Literal('REGISTER') },
  { additionalProperties: false, title: 'RegistrationReferralActivity' },
);

export const RegisterUserBody = Type.Object(
  {
    isRestricted: Type.Boolean(),
    profile: Profile,
    authIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    externalIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    linkedVenues: Type.Optional(LinkedVenues),
    consentsDefinition: Type.Optional(ConsentChoices),
    referralInviteCode: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'the invite code of the member who referred this one' }),
    ),
    referralActivity: Type.Optional(RegistrationReferralActivity),
  },
  {
    additionalProperties: false,
    title: 'RegisterUserBody',
    // rewards-interface: "referralInviteCode ... requires referralActivity", and the other way round.
    dependentRequired: { referralInviteCode: ['referralActivity'], referralActivity: ['referralInviteCode'] },
  },
);

const memberOwnFields = {
  profile: Type.Optional(ProfileChanges),
  flags: Type.Optional(Type.Object({ genderProvided: Type.Optional(Type.Boolean()) }, { additionalProperties: false })),
};

/** PATCH /users/{id} (docs/users.md#changes): every field optional. */
export const UpdateUserBody = Type.Object(
  {
    isRestricted: Type.Optional(Type.Boolean()),
    externalIdentifier: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Null()])),
    linkedVenues: Type.Optional(LinkedVenues),
    ...memberOwnFields,
  },
  { additionalProperties: false, title: 'UpdateUserBody' },
);

/**
 * PATCH /users/me: decisions §14, "a member's own token may change `profile` and `flags` only".
 * `isRestricted` is changed by admins only (docs/users.md#changes), `externalIdentifier` is the
 * tenant's own reference to the member (a CRM's id) and `linkedVenues` the tenant's venues, which
 * the member cannot rewrite either: sent here, each is a field the body does not take, 400
 * ValidationError naming it.
 */
export const UpdateOwnUserBody = Type.Object(memberOwnFields, {
  title: 'UpdateOwnUserBody',
  additionalProperties: false,
});

export const UserResource = Type.Object(
  {
    ...MEMBER_FIELDS,
    referralCodeUsedForRegistration: Type.Optional(ReferralCodeResource),
    consents: Type.Optional(Type.Array(MemberConsentResource, { description: 'the current ones; absent if none' })),
    ...TIMESTAMPS,
  },
  { title: 'User' },
);

/**
 * A member named in a body (a purchase's `subject`, an order's or a claim's `submitter`) by exactly
 * one of its identifiers, saying which (docs/users.md#identifiers): one object rather than a union
 * of three, so a wrong one is told what is wrong with it (an unknown key, two keys, a bad value)
 * and not each of three shapes it failed.
 */
export function MemberReferenceBody(title: string, description: string) {
  return Type.Unsafe<MemberReference>(
    Type.Object(
      {
        id: Type.Optional(Type.String({ format: 'uuid', description: "the member's id, which is its wallet's id" })),
        authIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
        accountNumber: Type.Optional(Type.Integer({ minimum: 1 })),
      },
      {
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
        title,
        description: `${description}: by exactly one of \`id\` (the member's id, its wallet's id), \`authIdentifier\` or \`accountNumber\``,
      },
    ),
  );
}

export const USER_LIST: ListSpec = {
  resource: 'user',
  defaultSort: 'createdAt',
  fields: {
    id: { type: 'uuid', filterable: true, sortable: true },
    ...TIMESTAMP_FIELDS,
    accountNumber: { type: 'number', filterable: true, sortable: true },
    authIdentifier: { type: 'string', filterable: true },
    externalIdentifier: { type: 'string', filterable: true },
    isRestricted: { type: 'boolean', filterable: true },
    'profile.emailAddress': { type: 'string', filterable: true },
    'profile.telephoneNumber': { type: 'string', filterable: true },
    'profile.familyName': { type: 'string', filterable: true },
    'profile.givenName': { type: 'string', filterable: true },
    'profile.attributes': { type: 'object', filterable: true },
  },
};

/** A member as the examples show them, alone and as the subject of an event. */
export const USER_EXAMPLE = {
  id: '3b2a1c0d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  accountNumber: 17,
  authIdentifier: 'member-17',
  externalIdentifier: null,
  isRestricted: false,
  profile: { givenName: 'Ada', familyName: 'Lovelace', emailAddress: 'ada@example.org' },
  flags: {},
  linkedVenues: [],
  fingerprint: '5f0c8e41b2d97a36c1e04f8b9a2d6e17',
  createdAt: '2026-01-06T10:00:00.000Z',
  updatedAt: '2026-01-06T10:00:00.000Z',
};

/** Any of a member's identifiers: the authIdentifier's bounds hold an id and an account number too. */
export const UserIdParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 256,
    description: "The member's id (its wallet's id), authIdentifier or account number",
    examples: [USER_EXAMPLE.id],
  }),
});
