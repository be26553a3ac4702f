import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerReadEvents } from './read-events.js';
import { registerReportEvent } from './report-event.js';
import { registerTestReaction } from './test-reaction.js';

export function registerEventRoutes(app: App, context: AppContext): void {
  registerReportEvent(app, context);
  registerTestReaction(app, context);
  registerReadEvents(app, context);
}
