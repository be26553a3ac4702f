import type { AppContext } from '../../shared/context.js';
import { deleteReactor } from '../../shared/reactors/reactor-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { Deleted, DELETED_ONE } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ReactorIdParams, tags } from './schema.js';

export function registerDeleteReactor(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'delete',
    path: '/v1/reactors/:id',
    operationId: 'deleteReactor',
    description:
      'Deletes a reactor for good: events registered from now on no longer run it; to pause it, set `isActive: false` instead. Points it granted stay in the ledger.',
    examples: { response: { affected: 1 } },
    summary: 'Delete a reactor',
    tags,
    access,
    params: ReactorIdParams,
    responses: { 200: { description: 'deleted', data: Deleted } },
    errors: [404],
    handler: async ({ params }, c) => {
      await deleteReactor(context, entityManager(c), changedBy(c), params.id);
      return DELETED_ONE;
    },
  });
}
