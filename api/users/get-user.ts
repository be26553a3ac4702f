import type { AppContext } from '../../shared/context.js';
import { memberView } from '../../shared/members/member-views.js';
import { entityManager, type App } from '../app-env.js';
import type { Access } from '../middleware/authorize.js';
import { defineRoute } from '../routes/define-route.js';
import { memberOf } from '../routes/member-target.js';
import { USER_EXAMPLE, UserIdParams, UserResource } from './schema.js';

export function registerGetUser(app: App, context: AppContext): void {
  const routes: { path: string; access: Access; summary: string; operationId: string; description: string }[] = [
    {
      path: '/v1/users/me',
      access: { user: true },
      summary: 'The member the user token speaks for',
      operationId: 'getOwnUser',
      description:
        "The member whose `authIdentifier` is the user token's `sub`. A token whose member is not registered yet is 404: register with `POST /v1/users`.",
    },
    {
      path: '/v1/users/:id',
      access: { admin: 'admin:users' },
      summary: 'One member by id, authIdentifier or account number',
      operationId: 'getUser',
      description: 'One member, found by its id, its `authIdentifier` or its account number, tried in that order.',
    },
  ];
  for (const route of routes) {
    defineRoute(app, context, {
      method: 'get',
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      examples: { response: USER_EXAMPLE },
      tags: ['Users'],
      access: route.access,
      ...(route.path.endsWith(':id') ? { params: UserIdParams } : {}),
      responses: { 200: { description: 'the member', data: UserResource } },
      errors: [404],
      handler: async (_input, c) => memberView(entityManager(c), await memberOf(c)),
    });
  }
}
