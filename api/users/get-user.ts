import type { AppContext } from '../../shared/context.js';
import { userView } from '../../shared/users/user-view.js';
import type { App } from '../app-env.js';
import type { Access } from '../middleware/authorize.js';
import { defineRoute } from '../routes/define-route.js';
import { memberOf } from './member-target.js';
import { UserIdParams, UserResource } from './schema.js';

export function registerGetUser(app: App, context: AppContext): void {
  const routes: { path: string; access: Access; summary: string }[] = [
    { path: '/v1/users/me', access: { user: true }, summary: 'The member the user token speaks for' },
    {
      path: '/v1/users/:id',
      access: { admin: 'admin:users' },
      summary: 'One member by id, authIdentifier or account number',
    },
  ];
  for (const route of routes) {
    defineRoute(app, context, {
      method: 'get',
      path: route.path,
      summary: route.summary,
      tags: ['Users'],
      access: route.access,
      ...(route.path.endsWith(':id') ? { params: UserIdParams } : {}),
      responses: { 200: { description: 'the member', data: UserResource } },
      errors: [404],
      handler: async (_input, c) => userView(await memberOf(c)),
    });
  }
}
