import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreateReactor } from './create-reactor.js';
import { registerDeleteReactor } from './delete-reactor.js';
import { registerGetReactor } from './get-reactor.js';
import { registerListReactors } from './list-reactors.js';
import { registerUpdateReactor } from './update-reactor.js';

/** `/v1/reactors` (docs/events.md#reactors): what events turn into. */
export function registerReactorRoutes(app: App, context: AppContext): void {
  registerCreateReactor(app, context);
  registerListReactors(app, context);
  registerGetReactor(app, context);
  registerUpdateReactor(app, context);
  registerDeleteReactor(app, context);
}
