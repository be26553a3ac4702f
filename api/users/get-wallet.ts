import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { readPoints } from '../../shared/ledger/wallet-service.js';
import { entityManager, type App } from '../app-env.js';
import type { Access } from '../middleware/authorize.js';
import { defineRoute } from '../routes/define-route.js';
import { memberOf } from './member-target.js';
import { UserIdParams } from './schema.js';

const WalletResource = Type.Object({
  points: Type.Integer({ description: 'the balance: earned minus spent, expired and reversed; never below zero' }),
  lifetimeEarn: Type.Integer({ description: 'every point ever earned' }),
});

/** docs/users.md#wallet: points and lifetimeEarn, derived from the ledger. */
export function registerGetWallet(app: App, context: AppContext): void {
  const routes: { path: string; access: Access; summary: string }[] = [
    {
      path: '/v1/users/me/wallet',
      access: { user: true },
      summary: 'The wallet of the member the user token speaks for',
    },
    { path: '/v1/users/:id/wallet', access: { admin: 'read:users' }, summary: "A member's wallet" },
  ];
  for (const route of routes) {
    defineRoute(app, context, {
      method: 'get',
      path: route.path,
      summary: route.summary,
      tags: ['Wallets'],
      access: route.access,
      ...(route.path.includes(':id') ? { params: UserIdParams } : {}),
      responses: { 200: { description: 'the wallet', data: WalletResource } },
      errors: [404],
      handler: async (_input, c) => readPoints(entityManager(c), c.var.tenant.id, (await memberOf(c)).id),
    });
  }
}
