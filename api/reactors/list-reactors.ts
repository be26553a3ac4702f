import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Reactor } from '../../shared/reactors/reactor.entity.js';
import { reactorView } from '../../shared/reactors/reactor-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, REACTOR_LIST, ReactorResource, tags } from './schema.js';

export function registerListReactors(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/reactors',
    operationId: 'listReactors',
    description:
      "The tenant's reactors. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: {
      response: [
        {
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
      ],
    },
    summary: 'List reactors',
    tags,
    access,
    query: listQuery(REACTOR_LIST),
    responses: { 200: { description: 'a page of reactors', data: Type.Array(ReactorResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Reactor, REACTOR_LIST, query, reactorView),
  });
}
