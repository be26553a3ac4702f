import type { AppContext } from '../../shared/context.js';
import { updateUser } from '../../shared/users/user-service.js';
import { userView } from '../../shared/users/user-view.js';
import { entityManager, type App } from '../app-env.js';
import { authorize, type Access } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { memberOf } from './member-target.js';
import { UpdateOwnUserBody, UpdateUserBody, UserIdParameter, UserResource } from './schema.js';

export function registerUpdateUser(app: App, context: AppContext): void {
  const routes: { path: string; access: Access; summary: string; body: typeof UpdateUserBody | typeof UpdateOwnUserBody }[] = [
    { path: '/v1/users/me', access: { user: true }, summary: 'Change the member the user token speaks for (not isRestricted, which admins set)', body: UpdateOwnUserBody },
    { path: '/v1/users/:id', access: { admin: 'admin:users' }, summary: 'Change a member; profile merges, attributes and flags are replaced whole', body: UpdateUserBody },
  ];
  for (const route of routes) {
    app.patch(
      route.path,
      describe({
        summary: route.summary,
        tags: ['Users'],
        access: route.access,
        ...(route.path.endsWith(':id') ? { parameters: [UserIdParameter] } : {}),
        body: route.body,
        responses: { 200: { description: 'the changed member', data: UserResource } },
        errors: [404, 422],
      }),
      authorize(context, route.access),
      jsonBody(route.body, { failAs: 'BadRequestError' }),
      async (c) => {
        const user = await updateUser(entityManager(c), context.subjects, context.payloadSchemas, await memberOf(c), c.req.valid('json'));
        return c.json({ status: 'success', data: userView(user) });
      },
    );
  }
}
