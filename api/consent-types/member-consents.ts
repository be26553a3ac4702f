import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { changeConsents } from '../../shared/consents/member-consents.js';
import { consentsWithHistory, memberConsentsPage } from '../../shared/consents/read-member-consents.js';
import { RequestedLocale } from '../../shared/platform/validation/locale-tag.js';
import { entityManager, type App } from '../app-env.js';
import { listQuery, pageAnswer } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';
import { ConsentChoices } from '../users/schema.js';
import { MemberConsentWithHistory } from '../../shared/consents/consent-resource.js';
import { CONSENT_TYPE_EXAMPLE, MEMBER_CONSENT_LIST, MEMBER_CONSENTS_EXAMPLE, tags } from './schema.js';

const CONSENTS = {
  description: 'a consent per type the member answered, the current answer with the earlier ones',
  data: Type.Array(MemberConsentWithHistory),
};

const SHOWN =
  'A consent per type the member answered: the current answer (the version and the exact text the member was shown, in `locale`) and `history`, the earlier answers, newest first. A page of the list, the newest answers first: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range: consent a-b/n` says where the page sits in the whole.';

/** docs/consents.md#a-members-consents: a member's consents, read by the member or an admin, changed by the member. */
export function registerMemberConsents(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: 'consents',
    own: {
      summary: 'The consents of the member the user token speaks for',
      operationId: 'listOwnConsents',
      description: `The consents of the member whose \`authIdentifier\` is the user token's \`sub\`. ${SHOWN}`,
    },
    anyMember: {
      summary: "A member's consents",
      operationId: 'listUserConsents',
      description: `A member's consents, the member found by its id, \`authIdentifier\` or account number. ${SHOWN}`,
    },
    method: 'get',
    examples: { response: MEMBER_CONSENTS_EXAMPLE },
    tags,
    query: listQuery(MEMBER_CONSENT_LIST),
    responses: { 200: { ...CONSENTS, description: 'a page of consents; see Content-Range' } },
    errors: [400, 404],
    handler: async ({ query }, c) =>
      pageAnswer(
        MEMBER_CONSENT_LIST,
        query,
        await memberConsentsPage(entityManager(c), c.var.tenant.id, (await memberOf(c)).id, query),
      ),
  });

  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/users/me/consents',
    operationId: 'changeOwnConsents',
    summary: 'Give or withdraw consents',
    description:
      "The member of the user token gives or withdraws consents; any consent may be withdrawn, a required one included. Each change is kept with its time, with the type's current version and its text in `?locale=` (else in the same language, else the type's `defaultLocale`); an answer equal to the current one for the current version changes nothing. An unknown consent type, or one named twice, is 400 ValidationError; a `version` that is no longer the type's is 409 ConflictError naming the type and its current version. An erased member is 404. Answers the member's consents to the types the request named, in its order, as the GET shows them.",
    examples: {
      request: [{ type: { id: CONSENT_TYPE_EXAMPLE.id }, checked: false }],
      response: MEMBER_CONSENTS_EXAMPLE,
    },
    tags,
    access: { user: true },
    query: Type.Object({
      locale: Type.Optional(
        RequestedLocale(
          "The member's active locale: the text is stored in it. `_` is read as `-`; a value that is no language tag is kept as asked and the type's default locale is used",
        ),
      ),
    }),
    body: ConsentChoices,
    responses: { 200: CONSENTS },
    errors: [400, 404, 409],
    handler: async ({ body, query }, c) => {
      const em = entityManager(c);
      const member = await memberOf(c);
      await changeConsents(em, member, body, query.locale);
      return consentsWithHistory(
        em,
        c.var.tenant.id,
        member.id,
        body.map((choice) => choice.type.id),
      );
    },
  });
}
