import type { AppContext } from '../../shared/context.js';
import { reactorView, updateReactor } from '../../shared/reactors/reactor-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ReactorIdParams, ReactorResource, tags, UpdateReactorBody } from './schema.js';

export function registerUpdateReactor(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/reactors/:id',
    operationId: 'updateReactor',
    description: 'Changes the fields given; the others keep their values.',
    examples: {
      request: { isActive: false },
      response: {
        id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        name: 'Ten points a euro',
        eventType: 'PURCHASE',
        isActive: false,
        conditions: { all: [{ fact: 'payload', path: '$.total', operator: 'greaterThan', value: 0 }] },
        reactions: [
          {
            type: 'POINTS',
            points: {
              operation: 'MULTIPLY',
              arguments: [
                { type: 'PATH', value: '$.payload.total' },
                { type: 'NUMBER', value: '10' },
              ],
            },
          },
        ],
        createdAt: '2026-01-07T08:00:00.000Z',
        updatedAt: '2026-01-07T08:00:00.000Z',
      },
    },
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
