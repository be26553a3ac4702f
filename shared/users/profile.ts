import { Type } from 'typebox';
import { changesSchema } from '../platform/validation/changes-schema.js';

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

/**
 * Profile fields and their bounds (docs/users.md#profile): city 1–256, postcode
 * 1–128 and pictureUrl https only are the document's; the other formats are ours: an email that
 * looks like one, a YYYY-MM-DD birthdate, short free text. Used whole on registration and member
 * by member on PATCH.
 */
export const ProfileFields = {
  familyName: Type.String({ minLength: 1, maxLength: 256 }),
  givenName: Type.String({ minLength: 1, maxLength: 256 }),
  emailAddress: Type.String({ format: 'email', maxLength: 320 }),
  telephoneNumber: Type.Optional(Type.String({ pattern: '^\\+?[0-9 ()./-]{3,32}$' })),
  gender: Type.Optional(
    Type.Union([Type.Literal('UNKNOWN'), Type.Literal('MALE'), Type.Literal('FEMALE'), Type.Literal('OTHER')]),
  ),
  birthdate: Type.Optional(Type.String({ pattern: DATE, format: 'date' })),
  streetAddress: Type.Optional(Type.String({ maxLength: 512 })),
  city: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  postcode: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  region: Type.Optional(Type.String({ maxLength: 256 })),
  country: Type.Optional(Type.String({ maxLength: 256 })),
  pictureUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^https://', maxLength: 2048 })),
  attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
};

export const Profile = Type.Object(ProfileFields, { additionalProperties: false });

/** On PATCH every member is optional; the merged profile is checked whole afterwards. */
export const ProfileChanges = changesSchema(Profile);
