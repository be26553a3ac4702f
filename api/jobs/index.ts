import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerGetJob } from './get-job.js';

/** `/v1/jobs`: long work a request started, followed until it is done (docs/points.md#bulk-adjustments). */
export function registerJobRoutes(app: App, context: AppContext): void {
  registerGetJob(app, context);
}
