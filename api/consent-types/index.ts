import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerConsentTypeVersions } from './consent-type-versions.js';
import { registerCreateConsentType } from './create-consent-type.js';
import { registerGetConsentType } from './get-consent-type.js';
import { registerListConsentTypes } from './list-consent-types.js';
import { registerMemberConsents } from './member-consents.js';
import { registerUpdateConsentType } from './update-consent-type.js';

/** `/v1/consent_types` and a member's consents (docs/consents.md). */
export function registerConsentRoutes(app: App, context: AppContext): void {
  registerCreateConsentType(app, context);
  registerListConsentTypes(app, context);
  registerGetConsentType(app, context);
  registerUpdateConsentType(app, context);
  registerConsentTypeVersions(app, context);
  registerMemberConsents(app, context);
}
