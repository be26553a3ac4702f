import type { AppContext } from '../../shared/context.js';
import { consentTypeView, updateConsentType } from '../../shared/consents/consent-type-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import {
  access,
  CONSENT_TYPE_EXAMPLE,
  ConsentTypeIdParams,
  ConsentTypeResource,
  tags,
  UpdateConsentTypeBody,
} from './schema.js';

export function registerUpdateConsentType(app: App, context: AppContext): void {
  const descriptions = { ...CONSENT_TYPE_EXAMPLE.descriptions, en: 'Send me the weekly newsletter by email.' };
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/consent_types/:id',
    operationId: 'updateConsentType',
    description:
      'Changes the fields given; the others keep their values. `descriptions` is replaced whole. New text (another `descriptions` or `defaultLocale`) raises `version`: the consents members gave keep the version and the exact text they saw, and their next answer is to the new version.',
    examples: { request: { descriptions }, response: { ...CONSENT_TYPE_EXAMPLE, descriptions, version: 2 } },
    summary: 'Change a consent type',
    tags,
    access,
    params: ConsentTypeIdParams,
    body: UpdateConsentTypeBody,
    responses: { 200: { description: 'the changed consent type', data: ConsentTypeResource } },
    errors: [404, 409],
    handler: async ({ params, body }, c) =>
      consentTypeView(await updateConsentType(context, entityManager(c), changedBy(c), params.id, body)),
  });
}
