import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { readPoints } from '../../shared/ledger/wallet-service.js';
import { entityManager, type App } from '../app-env.js';
import type { Access } from '../middleware/authorize.js';
import { defineRoute } from '../routes/define-route.js';
import { memberOf } from './member-target.js';
import { UserIdParams } from './schema.js';

const WalletResource = Type.Object(
  {
    points: Type.Integer({ description: 'the balance: earned minus spent, expired and reversed; never below zero' }),
    lifetimeEarn: Type.Integer({ description: 'every point ever earned' }),
  },
  { title: 'Wallet' },
);

/** docs/users.md#wallet: points and lifetimeEarn, derived from the ledger. */
export function registerGetWallet(app: App, context: AppContext): void {
  const routes: { path: string; access: Access; summary: string; operationId: string; description: string }[] = [
    {
      path: '/v1/users/me/wallet',
      access: { user: true },
      summary: 'The wallet of the member the user token speaks for',
      operationId: 'getOwnWallet',
      description:
        "The points of the member whose `authIdentifier` is the user token's `sub`: the balance and every point ever earned, both read from the ledger.",
    },
    {
      path: '/v1/users/:id/wallet',
      access: { admin: 'read:users' },
      summary: "A member's wallet",
      operationId: 'getUserWallet',
      description:
        "A member's points, the member found by its id, `authIdentifier` or account number: the balance and every point ever earned, both read from the ledger.",
    },
  ];
  for (const route of routes) {
    defineRoute(app, context, {
      method: 'get',
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      examples: { response: { points: 425, lifetimeEarn: 1310 } },
      tags: ['Wallets'],
      access: route.access,
      ...(route.path.includes(':id') ? { params: UserIdParams } : {}),
      responses: { 200: { description: 'the wallet', data: WalletResource } },
      errors: [404],
      handler: async (_input, c) => readPoints(entityManager(c), c.var.tenant.id, (await memberOf(c)).id),
    });
  }
}
