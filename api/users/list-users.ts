import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { User } from '../../shared/users/user.entity.js';
import { memberViews } from '../../shared/members/member-views.js';
import { entityManager, type App } from '../app-env.js';
import { LIST_PAGE, listPageViewed, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { USER_EXAMPLE, USER_LIST, UserResource } from './schema.js';

export function registerListUsers(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/users',
    operationId: 'listUsers',
    description: `The tenant's members. ${LIST_PAGE}`,
    examples: { response: [USER_EXAMPLE] },
    summary: 'List members',
    tags: ['Users'],
    access: { admin: 'admin:users' },
    query: listQuery(USER_LIST),
    responses: { 200: { description: 'a page of members; see Content-Range', data: Type.Array(UserResource) } },
    errors: [400],
    handler: ({ query }, c) =>
      listPageViewed(c, User, USER_LIST, query, (users) => memberViews(entityManager(c), c.var.tenant.id, users)),
  });
}
