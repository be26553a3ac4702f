import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { User } from '../../shared/users/user.entity.js';
import { userView } from '../../shared/users/user-view.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { USER_LIST, UserResource } from './schema.js';

export function registerListUsers(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/users',
    operationId: 'listUsers',
    description:
      "The tenant's members. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: {
      response: [
        {
          id: '3b2a1c0d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
          accountNumber: 17,
          authIdentifier: 'member-17',
          externalIdentifier: null,
          isRestricted: false,
          profile: { givenName: 'Ada', familyName: 'Lovelace', emailAddress: 'ada@example.org' },
          flags: {},
          linkedVenues: [],
          createdAt: '2026-01-06T10:00:00.000Z',
          updatedAt: '2026-01-06T10:00:00.000Z',
        },
      ],
    },
    summary: 'List members',
    tags: ['Users'],
    access: { admin: 'admin:users' },
    query: listQuery(USER_LIST),
    responses: { 200: { description: 'a page of members; see Content-Range', data: Type.Array(UserResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, User, USER_LIST, query, userView),
  });
}
