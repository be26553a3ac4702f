import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { eraseUser } from '../../shared/users/user-service.js';
import { entityManager, type App } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { memberOf } from './member-target.js';
import { UserIdParameter } from './schema.js';

export function registerDeleteUser(app: App, context: AppContext): void {
  const access = { admin: 'admin:users' } as const;
  app.delete(
    '/v1/users/:id',
    describe({
      summary: 'Erase a member\'s profile; ids, account number, events and ledger stay',
      tags: ['Users'],
      access,
      parameters: [UserIdParameter],
      responses: { 200: { description: 'erased', data: Type.Object({ affected: Type.Integer() }) } },
      errors: [404],
    }),
    authorize(context, access),
    async (c) => {
      const user = await memberOf(c);
      const affected = await eraseUser(entityManager(c), context.subjects, user);
      return c.json({ status: 'success', data: { affected } });
    },
  );
}
