import type { AppContext } from '../../shared/context.js';
import { reactorView, updateReactor } from '../../shared/reactors/reactor-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, REACTOR_EXAMPLE, ReactorIdParams, ReactorResource, tags, UpdateReactorBody } from './schema.js';

export function registerUpdateReactor(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/reactors/:id',
    operationId: 'updateReactor',
    description: 'Changes the fields given; the others keep their values.',
    examples: { request: { isActive: false }, response: { ...REACTOR_EXAMPLE, isActive: false } },
    summary: 'Change a reactor',
    tags,
    access,
    params: ReactorIdParams,
    body: UpdateReactorBody,
    responses: { 200: { description: 'the changed reactor', data: ReactorResource } },
    errors: [404],
    handler: async ({ params, body }, c) =>
      reactorView(await updateReactor(context, entityManager(c), changedBy(c), params.id, body)),
  });
}
