import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerGetEvent } from './get-event.js';
import { registerGetReactions } from './get-reactions.js';
import { registerListEvents } from './list-events.js';
import { registerListUserEvents } from './list-user-events.js';
import { registerReportEvent } from './report-event.js';
import { registerTestReaction } from './test-reaction.js';

export function registerEventRoutes(app: App, context: AppContext): void {
  registerReportEvent(app, context);
  registerTestReaction(app, context);
  registerListEvents(app, context);
  registerListUserEvents(app, context);
  registerGetEvent(app, context);
  registerGetReactions(app, context);
}
