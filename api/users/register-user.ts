import type { AppContext } from '../../shared/context.js';
import { registerUser } from '../../shared/users/user-service.js';
import { User } from '../../shared/users/user.entity.js';
import { userView } from '../../shared/users/user-view.js';
import { entityManager, type App } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecordOf, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { RegisterUserBody, UserResource } from './schema.js';

export function registerRegisterUser(app: App, context: AppContext): void {
  const access = { admin: 'admin:users', user: true } as const;
  app.post(
    '/v1/users',
    describe({
      summary: 'Register a member: a user token registers itself, an admin anyone',
      tags: ['Users'],
      access,
      body: RegisterUserBody,
      parameters: [{ name: 'locale', in: 'query', schema: { type: 'string' }, description: 'The member\'s active locale' }],
      responses: { 201: { description: 'registered', data: UserResource } },
      errors: [409, 422],
    }),
    authorize(context, access),
    idempotent(context, createsRecordOf(User, userView)),
    jsonBody(RegisterUserBody, { failAs: 'BadRequestError' }),
    async (c) => {
      const user = await registerUser(entityManager(c), context.payloadSchemas, c.var.tenant.id, c.var.principal!, c.req.valid('json'), c.var.reservedId);
      return c.json({ status: 'success', data: userView(user) }, 201);
    },
  );
}
