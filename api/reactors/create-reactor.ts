import type { AppContext } from '../../shared/context.js';
import { Reactor } from '../../shared/reactors/reactor.entity.js';
import { createReactor, reactorView } from '../../shared/reactors/reactor-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { access, CreateReactorBody, ReactorResource, tags } from './schema.js';

export function registerCreateReactor(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/reactors',
    operationId: 'createReactor',
    description:
      'A reactor turns registered events of one type into reactions: points by an arithmetic expression over the event, or a delivery to a webhook, when its json-rules-engine `conditions` hold.',
    examples: {
      request: {
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
      },
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
    summary: 'Create a reactor',
    tags,
    access,
    idempotency: createsRecordOf(Reactor, reactorView),
    body: CreateReactorBody,
    responses: { 201: { description: 'created', data: ReactorResource } },
    errors: [409, 422],
    handler: async ({ body }, c) =>
      reactorView(await createReactor(context, entityManager(c), changedBy(c), body, c.var.reservedId)),
  });
}
