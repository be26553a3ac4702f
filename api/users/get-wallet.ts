import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { readPoints } from '../../shared/ledger/wallet-service.js';
import { entityManager, type App } from '../app-env.js';
import { authorize, type Access } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';
import { memberOf } from './member-target.js';
import { UserIdParameter } from './schema.js';

const WalletResource = Type.Object({
  points: Type.Integer({ description: 'the balance: earned minus spent, expired and reversed; never below zero' }),
  lifetimeEarn: Type.Integer({ description: 'every point ever earned' }),
});

/** rewards-interface.md, Wallets: points and lifetimeEarn, derived from the ledger. */
export function registerGetWallet(app: App, context: AppContext): void {
  const routes: { path: string; access: Access; summary: string }[] = [
    { path: '/v1/users/me/wallet', access: { user: true }, summary: 'The wallet of the member the user token speaks for' },
    { path: '/v1/users/:id/wallet', access: { admin: 'read:users' }, summary: 'A member\'s wallet' },
  ];
  for (const route of routes) {
    app.get(
      route.path,
      describe({
        summary: route.summary,
        tags: ['Wallets'],
        access: route.access,
        ...(route.path.includes(':id') ? { parameters: [UserIdParameter] } : {}),
        responses: { 200: { description: 'the wallet', data: WalletResource } },
        errors: [404],
      }),
      authorize(context, route.access),
      async (c) => {
        const user = await memberOf(c);
        return c.json({ status: 'success', data: await readPoints(entityManager(c), c.var.tenant.id, user.id) });
      },
    );
  }
}
