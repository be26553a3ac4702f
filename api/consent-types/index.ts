import type { AppContext } from '../../shared/context.js';
import { ConsentType } from '../../shared/consents/consent-type.entity.js';
import {
  consentTypeView,
  createConsentType,
  findConsentType,
  updateConsentType,
} from '../../shared/consents/consent-type-service.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import { registerConsentTypeVersions } from './consent-type-versions.js';
import { registerMemberConsents } from './member-consents.js';
import {
  access,
  CONSENT_TYPE_EXAMPLE,
  CONSENT_TYPE_LIST,
  ConsentTypeIdParams,
  ConsentTypeResource,
  CreateConsentTypeBody,
  tags,
  UpdateConsentTypeBody,
} from './schema.js';

/** `/v1/consent_types` and a member's consents (docs/consents.md). */
export function registerConsentRoutes(app: App, context: AppContext): void {
  const consentTypes = collectionRoutes(app, context, {
    path: '/v1/consent_types',
    noun: 'consent type',
    entity: ConsentType,
    resource: ConsentTypeResource,
    view: consentTypeView,
    example: CONSENT_TYPE_EXAMPLE,
    params: ConsentTypeIdParams,
    tags,
    access,
  });
  const { name, required, defaultLocale, descriptions } = CONSENT_TYPE_EXAMPLE;
  consentTypes.create({
    summary: 'Add a consent type',
    description:
      'Something members consent to at registration and afterwards: its text in each locale and the locale to fall back to (`defaultLocale`, one of the keys of `descriptions`, else 400 naming it). A `required` type must be given to register. The type starts at `version` 1; a name already used in the tenant is 409 ConflictError.',
    body: CreateConsentTypeBody,
    request: { name, required, defaultLocale, descriptions },
    errors: [409],
    create: createConsentType,
  });
  // The API key alone reads consent types: a sign-up form shows them before its member has a token.
  consentTypes.list({
    summary: "List the tenant's consent types",
    description:
      "The tenant's consent types, with their current text; needs the API key only, so a sign-up form can show them.",
    answer: 'a page of consent types; see Content-Range',
    access: 'apiKey',
    spec: CONSENT_TYPE_LIST,
  });
  consentTypes.get({
    description: 'One consent type by its id, with its current text; needs the API key only.',
    access: 'apiKey',
    find: findConsentType,
  });
  const changed = { ...descriptions, en: 'Send me the weekly newsletter by email.' };
  consentTypes.update({
    description:
      'Changes the fields given; the others keep their values. `descriptions` is replaced whole. New text (another `descriptions` or `defaultLocale`) raises `version`: the consents members gave keep the version and the exact text they saw, and their next answer is to the new version.',
    body: UpdateConsentTypeBody,
    examples: {
      request: { descriptions: changed },
      response: { ...CONSENT_TYPE_EXAMPLE, descriptions: changed, version: 2 },
    },
    errors: [404, 409],
    update: updateConsentType,
  });
  registerConsentTypeVersions(app, context);
  registerMemberConsents(app, context);
}
