import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { registerUser } from '../../shared/users/user-service.js';
import { User } from '../../shared/users/user.entity.js';
import { userView } from '../../shared/users/user-view.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { RegisterUserBody, USER_EXAMPLE, UserResource } from './schema.js';

export function registerRegisterUser(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/users',
    operationId: 'registerUser',
    description:
      "Registers a member. With a user token the member registers itself and its `authIdentifier` is the token's `sub`; with an `admin:users` token any member may be registered. The profile is checked against the tenant's profile rules (400 BadRequestError naming the field); a member already registered is 422 UserExistsError. The member gets an `accountNumber`, increasing within the tenant.",
    examples: {
      request: { isRestricted: false, authIdentifier: 'member-17', profile: USER_EXAMPLE.profile },
      response: USER_EXAMPLE,
    },
    summary: 'Register a member: a user token registers itself, an admin anyone',
    tags: ['Users'],
    access: { admin: 'admin:users', user: true },
    query: Type.Object({ locale: Type.Optional(Type.String({ description: "The member's active locale" })) }),
    idempotency: createsRecordOf(User, userView),
    body: RegisterUserBody,
    bodyOptions: { failAs: 'BadRequestError' },
    responses: { 201: { description: 'registered', data: UserResource } },
    errors: [409, 422],
    handler: async ({ body }, c) =>
      userView(await registerUser(context, entityManager(c), changedBy(c), c.var.principal!, body, c.var.reservedId)),
  });
}
