import type { AppContext } from '../../shared/context.js';
import { findReactor, reactorView } from '../../shared/reactors/reactor-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, REACTOR_EXAMPLE, ReactorIdParams, ReactorResource, tags } from './schema.js';

export function registerGetReactor(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/reactors/:id',
    operationId: 'getReactor',
    description: 'One reactor by its id.',
    examples: { response: REACTOR_EXAMPLE },
    summary: 'Read a reactor',
    tags,
    access,
    params: ReactorIdParams,
    responses: { 200: { description: 'the reactor', data: ReactorResource } },
    errors: [404],
    handler: async ({ params }, c) => reactorView(await findReactor(entityManager(c), c.var.tenant.id, params.id)),
  });
}
