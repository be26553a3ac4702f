import { Type, type Static } from 'typebox';

/** How many earlier answers per type `history` shows: each may copy a 10,000-character text. */
export const HISTORY_LIMIT = 100;

const ConsentFields = {
  type: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }),
  version: Type.Integer({ description: "the version of the type's text the member answered" }),
  locale: Type.String({
    description:
      "the locale of the text the member was shown, one of the version's `descriptions` keys; kept when the member is erased",
  }),
  requestedLocale: Type.Union([Type.String(), Type.Null()], {
    description:
      'the `?locale=` the member asked for, as asked; null when none, and once the member is erased; differs from `locale` when the text fell back to another',
  }),
  description: Type.Union([Type.String(), Type.Null()], {
    description: 'the exact text the member was shown; null once the member is erased',
  }),
  checked: Type.Boolean({ description: 'true: the consent is given; false: withheld or withdrawn' }),
  givenAt: Type.String({ format: 'date-time', description: 'when the member answered' }),
};

/** A member's answer to a consent type: the current one, as the member view shows it, or an earlier one. */
export const MemberConsentResource = Type.Object(ConsentFields, { title: 'MemberConsent' });

/** The current answer with the earlier ones, as the consents routes show them. */
export const MemberConsentWithHistory = Type.Object(
  {
    ...ConsentFields,
    history: Type.Array(MemberConsentResource, {
      maxItems: HISTORY_LIMIT,
      description: `the earlier answers to this type, newest first: the ${HISTORY_LIMIT} latest`,
    }),
    historyCount: Type.Integer({
      minimum: 0,
      description: `how many earlier answers to this type there are in all; \`history\` holds the ${HISTORY_LIMIT} latest`,
    }),
  },
  { title: 'MemberConsentWithHistory' },
);

/** One answer a member gave to a consent type, as the API shows it (docs/consents.md#a-members-consents). */
export type ConsentView = Static<typeof MemberConsentResource>;
export type ConsentWithHistory = Static<typeof MemberConsentWithHistory>;
