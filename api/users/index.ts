import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerDeleteUser } from './delete-user.js';
import { registerGetUser } from './get-user.js';
import { registerGetWallet } from './get-wallet.js';
import { registerGetWalletPredictions } from './get-wallet-predictions.js';
import { registerListUserPurchases } from './list-user-purchases.js';
import { registerListUsers } from './list-users.js';
import { registerRegisterUser } from './register-user.js';
import { registerUpdateUser } from './update-user.js';

export function registerUserRoutes(app: App, context: AppContext): void {
  registerRegisterUser(app, context);
  registerListUsers(app, context);
  // /users/me before /users/:id, so "me" is never taken for an identifier.
  registerGetUser(app, context);
  registerUpdateUser(app, context);
  registerDeleteUser(app, context);
  registerGetWallet(app, context);
  registerGetWalletPredictions(app, context);
  registerListUserPurchases(app, context);
}
