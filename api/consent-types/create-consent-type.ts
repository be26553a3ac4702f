import type { AppContext } from '../../shared/context.js';
import { ConsentType } from '../../shared/consents/consent-type.entity.js';
import { consentTypeView, createConsentType } from '../../shared/consents/consent-type-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { access, CONSENT_TYPE_EXAMPLE, ConsentTypeResource, CreateConsentTypeBody, tags } from './schema.js';

export function registerCreateConsentType(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/consent_types',
    operationId: 'createConsentType',
    description:
      'Something members consent to at registration and afterwards: its text in each locale and the locale to fall back to (`defaultLocale`, one of the keys of `descriptions`, else 400 naming it). A `required` type must be given to register. The type starts at `version` 1; a name already used in the tenant is 409 ConflictError.',
    examples: {
      request: {
        name: CONSENT_TYPE_EXAMPLE.name,
        required: CONSENT_TYPE_EXAMPLE.required,
        defaultLocale: CONSENT_TYPE_EXAMPLE.defaultLocale,
        descriptions: CONSENT_TYPE_EXAMPLE.descriptions,
      },
      response: CONSENT_TYPE_EXAMPLE,
    },
    summary: 'Add a consent type',
    tags,
    access,
    idempotency: createsRecordOf(ConsentType, consentTypeView),
    body: CreateConsentTypeBody,
    responses: { 201: { description: 'created', data: ConsentTypeResource } },
    errors: [409],
    handler: async ({ body }, c) =>
      consentTypeView(await createConsentType(context, entityManager(c), changedBy(c), body, c.var.reservedId)),
  });
}
