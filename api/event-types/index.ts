import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreateEventType } from './create-event-type.js';
import { registerGetEventType } from './get-event-type.js';
import { registerListEventTypes } from './list-event-types.js';
import { registerRotateEventTypeSecret } from './rotate-event-type-secret.js';
import { registerUpdateEventType } from './update-event-type.js';

export function registerEventTypeRoutes(app: App, context: AppContext): void {
  registerCreateEventType(app, context);
  registerListEventTypes(app, context);
  registerGetEventType(app, context);
  registerUpdateEventType(app, context);
  registerRotateEventTypeSecret(app, context);
}
