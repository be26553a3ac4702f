import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { Reactor } from '../../shared/reactors/reactor.entity.js';
import { createReactor, deleteReactor, findReactor, reactorView, updateReactor } from '../../shared/reactors/reactor-service.js';
import { entityManager, type App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecordOf, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { CreateReactorBody, ReactorIdParameter, ReactorResource, UpdateReactorBody } from './schema.js';

const REACTOR_LIST: ListSpec = {
  resource: 'reactor',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    eventType: { type: 'string', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

const access = { admin: 'admin:reactors' } as const;
const tags = ['Reactors'];

/** `/v1/reactors` (decisions.md §6): what events turn into. Small enough to keep in one file. */
export function registerReactorRoutes(app: App, context: AppContext): void {
  app.post(
    '/v1/reactors',
    describe({ summary: 'Create a reactor', tags, access, body: CreateReactorBody, responses: { 201: { description: 'created', data: ReactorResource } }, errors: [409, 422] }),
    authorize(context, access),
    idempotent(context, createsRecordOf(Reactor, reactorView)),
    jsonBody(CreateReactorBody),
    async (c) => {
      const reactor = await createReactor(entityManager(c), context.reactors, c.var.tenant.id, c.req.valid('json'), c.var.reservedId);
      return c.json({ status: 'success', data: reactorView(reactor) }, 201);
    },
  );
  app.get(
    '/v1/reactors',
    describe({ summary: 'List reactors', tags, access, parameters: listParameters(REACTOR_LIST), responses: { 200: { description: 'a page of reactors', data: Type.Array(ReactorResource) } }, errors: [400] }),
    authorize(context, access),
    (c) => listResponse(c, Reactor, REACTOR_LIST, reactorView),
  );
  app.get(
    '/v1/reactors/:id',
    describe({ summary: 'Read a reactor', tags, access, parameters: [ReactorIdParameter], responses: { 200: { description: 'the reactor', data: ReactorResource } }, errors: [404] }),
    authorize(context, access),
    async (c) => c.json({ status: 'success', data: reactorView(await findReactor(entityManager(c), c.var.tenant.id, c.req.param('id'))) }),
  );
  app.patch(
    '/v1/reactors/:id',
    describe({ summary: 'Change a reactor', tags, access, parameters: [ReactorIdParameter], body: UpdateReactorBody, responses: { 200: { description: 'the changed reactor', data: ReactorResource } }, errors: [404] }),
    authorize(context, access),
    jsonBody(UpdateReactorBody),
    async (c) => {
      const reactor = await updateReactor(entityManager(c), context.reactors, c.var.tenant.id, c.req.param('id'), c.req.valid('json'));
      return c.json({ status: 'success', data: reactorView(reactor) });
    },
  );
  app.delete(
    '/v1/reactors/:id',
    describe({ summary: 'Delete a reactor', tags, access, parameters: [ReactorIdParameter], responses: { 200: { description: 'deleted', data: Type.Object({ affected: Type.Integer() }) } }, errors: [404] }),
    authorize(context, access),
    async (c) => {
      await deleteReactor(entityManager(c), context.reactors, c.var.tenant.id, c.req.param('id'));
      return c.json({ status: 'success', data: { affected: 1 } });
    },
  );
}
