import type { AppContext } from '../../shared/context.js';
import { consentTypeView, findConsentType } from '../../shared/consents/consent-type-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { CONSENT_TYPE_EXAMPLE, ConsentTypeIdParams, ConsentTypeResource, tags } from './schema.js';

export function registerGetConsentType(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/consent_types/:id',
    operationId: 'getConsentType',
    description: 'One consent type by its id, with its current text; needs the API key only.',
    examples: { response: CONSENT_TYPE_EXAMPLE },
    summary: 'Read a consent type',
    tags,
    access: 'apiKey',
    params: ConsentTypeIdParams,
    responses: { 200: { description: 'the consent type', data: ConsentTypeResource } },
    errors: [404],
    handler: async ({ params }, c) =>
      consentTypeView(await findConsentType(entityManager(c), c.var.tenant.id, params.id)),
  });
}
