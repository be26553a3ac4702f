import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { ConsentType } from '../../shared/consents/consent-type.entity.js';
import { consentTypeView } from '../../shared/consents/consent-type-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { CONSENT_TYPE_EXAMPLE, CONSENT_TYPE_LIST, ConsentTypeResource, tags } from './schema.js';

/** The API key alone reads consent types: a sign-up form shows them before its member has a token. */
export function registerListConsentTypes(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/consent_types',
    operationId: 'listConsentTypes',
    description:
      "The tenant's consent types, with their current text; needs the API key only, so a sign-up form can show them. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: { response: [CONSENT_TYPE_EXAMPLE] },
    summary: "List the tenant's consent types",
    tags,
    access: 'apiKey',
    query: listQuery(CONSENT_TYPE_LIST),
    responses: {
      200: { description: 'a page of consent types; see Content-Range', data: Type.Array(ConsentTypeResource) },
    },
    errors: [400],
    handler: ({ query }, c) => listPage(c, ConsentType, CONSENT_TYPE_LIST, query, consentTypeView),
  });
}
