import type { AppContext } from '../../shared/context.js';
import { Reactor } from '../../shared/reactors/reactor.entity.js';
import { createReactor, reactorView } from '../../shared/reactors/reactor-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import {
  access,
  CreateReactorBody,
  REACTOR_DEFINITION_EXAMPLE,
  REACTOR_EXAMPLE,
  ReactorResource,
  tags,
} from './schema.js';

export function registerCreateReactor(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/reactors',
    operationId: 'createReactor',
    description:
      'A reactor turns registered events of one type into reactions: points by an arithmetic expression over the event, a voucher of a VOUCHER reward (free, once per event), or a delivery to a webhook, when its json-rules-engine `conditions` hold.',
    examples: { request: REACTOR_DEFINITION_EXAMPLE, response: REACTOR_EXAMPLE },
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
