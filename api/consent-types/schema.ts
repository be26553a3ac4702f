import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type } from 'typebox';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { LOCALE_TAG_PATTERN, LocaleTag } from '../../shared/platform/validation/locale-tag.js';
import { INTEGER_COLUMN_MAX } from '../../shared/platform/db/integer-columns.js';
import { uuidPath } from '../routes/request-input.js';

/**
 * How many locales one consent type is written in, and how long each text may be: at worst 6 bytes
 * a character (a control character escaped as `\u0001`), the longest body is 20 × 8,000 × 6 bytes,
 * 960,000, under the 1 MiB body limit, so a body within the bounds is never 413.
 */
const MAX_LOCALES = 20;
const MAX_DESCRIPTION_LENGTH = 8_000;

const Descriptions = Type.Record(
  Type.String({ pattern: LOCALE_TAG_PATTERN }),
  Type.String({ minLength: 1, maxLength: MAX_DESCRIPTION_LENGTH }),
  {
    additionalProperties: false,
    // The key's own bounds are its pattern alone in a record: its length is bounded here.
    propertyNames: { type: 'string', maxLength: 35 },
    minProperties: 1,
    maxProperties: MAX_LOCALES,
    description:
      `the text a member agrees to, by locale (\`{"en": "…", "fr-CA": "…"}\`): each key a language tag, each text 1 to ${MAX_DESCRIPTION_LENGTH} ` +
      `characters, at most ${MAX_LOCALES} locales`,
  },
);

export const CreateConsentTypeBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'unique within the tenant' }),
    required: Type.Boolean({ description: 'true: a member cannot register without giving this consent' }),
    defaultLocale: LocaleTag("the locale shown when the member's is not written: one of the keys of `descriptions`"),
    descriptions: Descriptions,
  },
  { additionalProperties: false, title: 'CreateConsentTypeBody' },
);

export const UpdateConsentTypeBody = changesSchema(CreateConsentTypeBody, { title: 'UpdateConsentTypeBody' });

export const ConsentTypeResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    required: Type.Boolean(),
    defaultLocale: Type.String(),
    descriptions: Type.Record(Type.String(), Type.String()),
    version: Type.Integer({
      minimum: 1,
      description:
        'the version of the text: 1 when created, raised by each change of `descriptions` or `defaultLocale`',
    }),
    ...TIMESTAMPS,
  },
  { title: 'ConsentType' },
);

export const ConsentTypeVersionResource = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    defaultLocale: Type.String(),
    descriptions: Type.Record(Type.String(), Type.String(), {
      description: 'the text of this version, by locale',
    }),
    createdAt: Type.String({ format: 'date-time', description: 'when the type took this text' }),
  },
  { title: 'ConsentTypeVersion' },
);

export const CONSENT_TYPE_VERSION_LIST: ListSpec = {
  resource: 'consent_type_version',
  defaultSort: 'version',
  fields: {
    version: { type: 'number', filterable: true, sortable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

export const CONSENT_TYPE_LIST: ListSpec = {
  resource: 'consent_type',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    required: { type: 'boolean', filterable: true },
    ...TIMESTAMP_FIELDS,
  },
};

/**
 * A member's consents as a list (decisions §14): its current answer to each type it answered,
 * newest first by default, `Content-Range: consent a-b/n`.
 */
export const MEMBER_CONSENT_LIST: ListSpec = {
  resource: 'consent',
  defaultSort: 'givenAt',
  fields: {
    'type.id': { type: 'uuid', path: 'consentType.id', filterable: true },
    'type.name': { type: 'string', path: 'consentType.name', filterable: true, sortable: true },
    version: { type: 'number', filterable: true, sortable: true },
    locale: { type: 'string', filterable: true },
    checked: { type: 'boolean', filterable: true },
    givenAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

export const tags = ['Consents'];

/** Consent types are part of registering members, so the member admins (`admin:users`) keep them. */
export const access = { admin: 'admin:users' } as const;

/** A consent type as the examples show it. */
export const CONSENT_TYPE_EXAMPLE = {
  id: '5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f',
  name: 'Newsletter',
  required: false,
  defaultLocale: 'en',
  descriptions: {
    en: 'Send me the monthly newsletter by email.',
    fr: "Envoyez-moi la lettre d'information mensuelle.",
  },
  version: 1,
  createdAt: '2026-01-05T09:00:00.000Z',
  updatedAt: '2026-01-05T09:00:00.000Z',
};

/** The first version of the example type. */
export const CONSENT_TYPE_VERSION_EXAMPLE = {
  version: 1,
  defaultLocale: CONSENT_TYPE_EXAMPLE.defaultLocale,
  descriptions: CONSENT_TYPE_EXAMPLE.descriptions,
  createdAt: CONSENT_TYPE_EXAMPLE.createdAt,
};

const CONSENT_EXAMPLE = {
  type: { id: CONSENT_TYPE_EXAMPLE.id, name: CONSENT_TYPE_EXAMPLE.name },
  version: 1,
  locale: 'fr',
  requestedLocale: 'fr-CA',
  description: CONSENT_TYPE_EXAMPLE.descriptions.fr,
  checked: false,
  givenAt: '2026-02-01T18:30:00.000Z',
};

/** A member's consents as the consents routes show them: withdrawn after it was given. */
export const MEMBER_CONSENTS_EXAMPLE = [
  {
    ...CONSENT_EXAMPLE,
    history: [{ ...CONSENT_EXAMPLE, checked: true, givenAt: '2026-01-06T10:00:00.000Z' }],
    historyCount: 1,
  },
];

export const ConsentTypeIdParams = uuidPath({
  id: { description: "The consent type's id", example: CONSENT_TYPE_EXAMPLE.id },
});

export const ConsentTypeVersionParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The consent type's id", examples: [CONSENT_TYPE_EXAMPLE.id] }),
  version: Type.Integer({
    minimum: 1,
    maximum: INTEGER_COLUMN_MAX,
    description: 'The version number, as a consent records it',
    examples: [CONSENT_TYPE_VERSION_EXAMPLE.version],
  }),
});
