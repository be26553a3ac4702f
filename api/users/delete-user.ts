import type { AppContext } from '../../shared/context.js';
import { eraseUser } from '../../shared/members/erase-member.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { Deleted } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { memberOf } from '../routes/member-target.js';
import { UserIdParams } from './schema.js';

export function registerDeleteUser(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'delete',
    path: '/v1/users/:id',
    operationId: 'eraseUser',
    description:
      "Erases a member's personal data (its profile): its ids, account number, events and points ledger stay, so the tenant's totals still add up. The member can no longer be found by its contacts.",
    examples: { response: { affected: 1 } },
    summary: "Erase a member's profile; ids, account number, events and ledger stay",
    tags: ['Users'],
    access: { admin: 'admin:users' },
    params: UserIdParams,
    responses: { 200: { description: 'erased', data: Deleted } },
    errors: [404],
    handler: async (_input, c) => ({
      affected: await eraseUser(context, entityManager(c), changedBy(c), await memberOf(c)),
    }),
  });
}
