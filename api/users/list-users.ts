import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { User } from '../../shared/users/user.entity.js';
import { userView } from '../../shared/users/user-view.js';
import type { App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { UserResource } from './schema.js';

const USER_LIST: ListSpec = {
  resource: 'user',
  defaultSort: 'createdAt',
  fields: {
    id: { type: 'uuid', filterable: true, sortable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
    accountNumber: { type: 'number', filterable: true, sortable: true },
    authIdentifier: { type: 'string', filterable: true },
    externalIdentifier: { type: 'string', filterable: true },
    isRestricted: { type: 'boolean', filterable: true },
    'profile.emailAddress': { type: 'string', filterable: true },
    'profile.telephoneNumber': { type: 'string', filterable: true },
    'profile.familyName': { type: 'string', filterable: true },
    'profile.givenName': { type: 'string', filterable: true },
    'profile.attributes': { type: 'object', filterable: true },
  },
};

export function registerListUsers(app: App, context: AppContext): void {
  const access = { admin: 'admin:users' } as const;
  app.get(
    '/v1/users',
    describe({
      summary: 'List members',
      tags: ['Users'],
      access,
      parameters: listParameters(USER_LIST),
      responses: { 200: { description: 'a page of members; see Content-Range', data: Type.Array(UserResource) } },
      errors: [400],
    }),
    authorize(context, access),
    (c) => listResponse(c, User, USER_LIST, userView),
  );
}
