import type { AppContext } from '../../shared/context.js';
import { memberView } from '../../shared/members/member-views.js';
import { entityManager, type App } from '../app-env.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';
import { USER_EXAMPLE, UserResource } from './schema.js';

export function registerGetUser(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: '',
    own: {
      summary: 'The member the user token speaks for',
      operationId: 'getOwnUser',
      description:
        "The member whose `authIdentifier` is the user token's `sub`. A token whose member is not registered yet is 404: register with `POST /v1/users`.",
    },
    anyMember: {
      summary: 'One member by id, authIdentifier or account number',
      operationId: 'getUser',
      description: 'One member, found by its id, its `authIdentifier` or its account number, tried in that order.',
      access: { admin: 'admin:users' },
    },
    method: 'get',
    examples: { response: USER_EXAMPLE },
    tags: ['Users'],
    responses: { 200: { description: 'the member', data: UserResource } },
    errors: [404],
    handler: async (_input, c) => memberView(entityManager(c), await memberOf(c)),
  });
}
