import type { AppContext } from '../../shared/context.js';
import { Reactor } from '../../shared/reactors/reactor.entity.js';
import {
  createReactor,
  deleteReactor,
  findReactor,
  reactorView,
  updateReactor,
} from '../../shared/reactors/reactor-service.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import {
  access,
  CreateReactorBody,
  REACTOR_DEFINITION_EXAMPLE,
  REACTOR_EXAMPLE,
  REACTOR_LIST,
  ReactorIdParams,
  ReactorResource,
  tags,
  UpdateReactorBody,
} from './schema.js';

/** `/v1/reactors` (docs/events.md#reactors): what events turn into. */
export function registerReactorRoutes(app: App, context: AppContext): void {
  const reactors = collectionRoutes(app, context, {
    path: '/v1/reactors',
    noun: 'reactor',
    entity: Reactor,
    resource: ReactorResource,
    view: reactorView,
    example: REACTOR_EXAMPLE,
    params: ReactorIdParams,
    tags,
    access,
  });
  reactors.create({
    summary: 'Create a reactor',
    description:
      'A reactor turns registered events of one type into reactions: points by an arithmetic expression over the event, a voucher of a VOUCHER reward (free, once per event), or a delivery to a webhook, when its json-rules-engine `conditions` hold.',
    body: CreateReactorBody,
    request: REACTOR_DEFINITION_EXAMPLE,
    errors: [409, 422],
    create: createReactor,
  });
  reactors.list({ description: "The tenant's reactors.", spec: REACTOR_LIST });
  reactors.get({ find: findReactor });
  reactors.update({
    body: UpdateReactorBody,
    examples: { request: { isActive: false }, response: { ...REACTOR_EXAMPLE, isActive: false } },
    update: updateReactor,
  });
  reactors.delete({
    description:
      'Deletes a reactor for good: events registered from now on no longer run it; to pause it, set `isActive: false` instead. Points it granted stay in the ledger.',
    remove: deleteReactor,
  });
}
