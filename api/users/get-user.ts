import type { AppContext } from '../../shared/context.js';
import { userView } from '../../shared/users/user-view.js';
import type { App } from '../app-env.js';
import type { Access } from '../middleware/authorize.js';
import { defineRoute } from '../routes/define-route.js';
import { memberOf } from './member-target.js';
import { UserIdParams, UserResource } from './schema.js';

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
      examples: {
        response: {
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
      },
      tags: ['Users'],
      access: route.access,
      ...(route.path.endsWith(':id') ? { params: UserIdParams } : {}),
      responses: { 200: { description: 'the member', data: UserResource } },
      errors: [404],
      handler: async (_input, c) => userView(await memberOf(c)),
    });
  }
}
