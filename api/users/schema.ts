import { Type } from 'typebox';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { Profile, ProfileChanges } from '../../shared/users/profile.js';

export const RegisterUserBody = Type.Object(
  {
    isRestricted: Type.Boolean(),
    profile: Profile,
    authIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    externalIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    linkedVenues: Type.Optional(
      Type.Array(Type.Object({ id: Type.String({ minLength: 1 }) }, { additionalProperties: false }), {
        maxItems: 100,
      }),
    ),
  },
  { additionalProperties: false, title: 'RegisterUserBody' },
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
    ...memberOwnFields,
  },
  { additionalProperties: false, title: 'UpdateUserBody' },
);

/**
 * PATCH /users/me: a member changes its profile and flags. `isRestricted` is changed by admins only
 * (docs/users.md#changes), and `externalIdentifier` is the tenant's own reference to the member (a CRM's
 * id), which the member cannot rewrite either.
 */
export const UpdateOwnUserBody = Type.Object(memberOwnFields, {
  title: 'UpdateOwnUserBody',
  additionalProperties: false,
});

export const UserResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    accountNumber: Type.Integer(),
    authIdentifier: Type.String(),
    externalIdentifier: Type.Union([Type.String(), Type.Null()]),
    isRestricted: Type.Boolean(),
    profile: Type.Record(Type.String(), Type.Unknown()),
    flags: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    linkedVenues: Type.Array(Type.Object({ id: Type.String() })),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'User' },
);

export const UserIdParams = Type.Object({
  id: Type.String({ description: "The member's id, authIdentifier or account number" }),
});

export const USER_LIST: ListSpec = {
  resource: 'user',
  defaultSort: 'createdAt',
  fields: {
    id: { type: 'uuid', filterable: true, sortable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
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
  createdAt: '2026-01-06T10:00:00.000Z',
  updatedAt: '2026-01-06T10:00:00.000Z',
};
