import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Reactor } from '../../shared/reactors/reactor.entity.js';
import { reactorView } from '../../shared/reactors/reactor-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, REACTOR_EXAMPLE, REACTOR_LIST, ReactorResource, tags } from './schema.js';

export function registerListReactors(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/reactors',
    operationId: 'listReactors',
    description:
      "The tenant's reactors. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: { response: [REACTOR_EXAMPLE] },
    summary: 'List reactors',
    tags,
    access,
    query: listQuery(REACTOR_LIST),
    responses: { 200: { description: 'a page of reactors', data: Type.Array(ReactorResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Reactor, REACTOR_LIST, query, reactorView),
  });
}
