import type { AppContext } from '../../shared/context.js';
import { updateUser } from '../../shared/users/user-service.js';
import { memberView } from '../../shared/members/member-views.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';
import { UpdateOwnUserBody, UpdateUserBody, USER_EXAMPLE, UserResource } from './schema.js';

export function registerUpdateUser(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: '',
    own: {
      summary: 'Change the profile and flags of the member the user token speaks for',
      operationId: 'updateOwnUser',
      description:
        "The member whose `authIdentifier` is the user token's `sub` changes its own profile and flags, and nothing else: `isRestricted`, `externalIdentifier` and `linkedVenues`, which admins set, are 400 ValidationError naming the field. The profile merges field by field; `attributes` and `flags` are replaced whole. Profile faults are 400 BadRequestError naming the field.",
      body: UpdateOwnUserBody,
    },
    anyMember: {
      summary: 'Change a member; profile merges, attributes and flags are replaced whole',
      operationId: 'updateUser',
      description:
        "Changes a member found by its id, `authIdentifier` or account number: the profile merges field by field, `attributes`, `flags` and `linkedVenues` are replaced whole; `isRestricted`, `externalIdentifier` and `linkedVenues` are set here only. Profile faults are 400 BadRequestError naming the field; a `linkedVenues` id that is no venue of the tenant's is 400 ValidationError.",
      access: { admin: 'admin:users' },
      body: UpdateUserBody,
    },
    method: 'patch',
    examples: {
      request: { profile: { givenName: 'Ada', telephoneNumber: '+44 20 7946 0000' } },
      response: USER_EXAMPLE,
    },
    tags: ['Users'],
    bodyOptions: { failAs: 'BadRequestError' },
    responses: { 200: { description: 'the changed member', data: UserResource } },
    errors: [404, 422],
    handler: async ({ body }, c) =>
      memberView(entityManager(c), await updateUser(context, entityManager(c), changedBy(c), await memberOf(c), body)),
  });
}
