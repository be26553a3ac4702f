import type { Context } from 'hono';
import { findTokenUser, findUser } from '../../shared/users/user-service.js';
import type { User } from '../../shared/users/user.entity.js';
import { entityManager, type AppEnv } from '../app-env.js';

/** The member a /users/{id} or /users/me route is about, always within the caller's tenant. */
export function memberOf(c: Context<AppEnv>): Promise<User> {
  const principal = c.var.principal;
  if (principal?.kind === 'user') return findTokenUser(entityManager(c), c.var.tenant.id, principal.authIdentifier);
  return findUser(entityManager(c), c.var.tenant.id, c.req.param('id') ?? '');
}
