import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { ConsentTypeVersion } from '../../shared/consents/consent-type.entity.js';
import { findConsentType } from '../../shared/consents/consent-type-service.js';
import { consentTypeVersionView, findConsentTypeVersion } from '../../shared/consents/consent-type-versions.js';
import { entityManager, type App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import {
  CONSENT_TYPE_VERSION_EXAMPLE,
  CONSENT_TYPE_VERSION_LIST,
  ConsentTypeIdParams,
  ConsentTypeVersionParams,
  ConsentTypeVersionResource,
  tags,
} from './schema.js';

/**
 * docs/consents.md#versions: the text of every version a type had, read with the API key alone like
 * the type itself, so the words a member agreed to can be shown after the type moved on, or after
 * the member's own copy of them was erased.
 */
export function registerConsentTypeVersions(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/consent_types/:id/versions',
    operationId: 'listConsentTypeVersions',
    description: `The text of each version a consent type has had, newest first; needs the API key only. A consent's \`version\` and \`locale\` find the exact words its member was shown. ${LIST_PAGE}`,
    examples: { response: [CONSENT_TYPE_VERSION_EXAMPLE] },
    summary: "List a consent type's versions",
    tags,
    access: 'apiKey',
    params: ConsentTypeIdParams,
    query: listQuery(CONSENT_TYPE_VERSION_LIST),
    responses: {
      200: {
        description: 'a page of versions; see Content-Range',
        data: Type.Array(ConsentTypeVersionResource),
      },
    },
    errors: [400, 404],
    handler: async ({ params, query }, c) => {
      const type = await findConsentType(entityManager(c), c.var.tenant.id, params.id);
      return listPage(c, ConsentTypeVersion, CONSENT_TYPE_VERSION_LIST, query, consentTypeVersionView, {
        scope: { consentType: type.id },
      });
    },
  });

  defineRoute(app, context, {
    method: 'get',
    path: '/v1/consent_types/:id/versions/:version',
    operationId: 'getConsentTypeVersion',
    description:
      'The text a consent type had at one version, in every locale it was written in; needs the API key only. An unknown type or version is 404.',
    examples: { response: CONSENT_TYPE_VERSION_EXAMPLE },
    summary: 'Read one version of a consent type',
    tags,
    access: 'apiKey',
    params: ConsentTypeVersionParams,
    responses: { 200: { description: 'the version', data: ConsentTypeVersionResource } },
    errors: [404],
    handler: async ({ params }, c) =>
      consentTypeVersionView(
        await findConsentTypeVersion(entityManager(c), c.var.tenant.id, params.id, params.version),
      ),
  });
}
