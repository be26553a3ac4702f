import type { AppContext } from '../../shared/context.js';
import { findReactor, reactorView } from '../../shared/reactors/reactor-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ReactorIdParams, ReactorResource, tags } from './schema.js';

export function registerGetReactor(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/reactors/:id',
    operationId: 'getReactor',
    description: 'One reactor by its id.',
    examples: {
      response: {
        id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        name: 'Ten points a euro',
        eventType: 'PURCHASE',
        isActive: true,
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
    summary: 'Read a reactor',
    tags,
    access,
    params: ReactorIdParams,
    responses: { 200: { description: 'the reactor', data: ReactorResource } },
    errors: [404],
    handler: async ({ params }, c) => reactorView(await findReactor(entityManager(c), c.var.tenant.id, params.id)),
  });
}
