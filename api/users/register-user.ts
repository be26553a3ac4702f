import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { registerUser } from '../../shared/users/user-service.js';
import { User } from '../../shared/users/user.entity.js';
import { userView } from '../../shared/users/user-view.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { RegisterUserBody, UserResource } from './schema.js';

export function registerRegisterUser(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/users',
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
