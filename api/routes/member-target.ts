import type { Context } from 'hono';
import { findTokenUser, findUser } from '../../shared/users/user-service.js';
import type { User } from '../../shared/users/user.entity.js';
import { entityManager, type AppEnv } from '../app-env.js';
import type { Access } from '../middleware/authorize.js';

/** The member a /users/{id} or /users/me route is about, always within the caller's tenant. */
export function memberOf(c: Context<AppEnv>): Promise<User> {
  const principal = c.var.principal;
  if (principal?.kind === 'user') return findTokenUser(entityManager(c), c.var.tenant.id, principal.authIdentifier);
  return findUser(entityManager(c), c.var.tenant.id, c.req.param('id') ?? '');
}

/** What one of a member resource's two routes says of itself in the API reference. */
export interface MemberRouteText {
  summary: string;
  operationId: string;
  description: string;
}

/**
 * The two routes to one member's resource: `/v1/users/me/<resource>` for the member's own user
 * token, and `/v1/users/:id/<resource>` for an admin token with `read:users`, the member found by
 * its id, authIdentifier or account number (`byId`). Both answer through memberOf.
 */
export function memberRoutes(
  resource: string,
  own: MemberRouteText,
  anyMember: MemberRouteText,
): (MemberRouteText & { path: string; access: Access; byId: boolean })[] {
  return [
    { ...own, path: `/v1/users/me/${resource}`, access: { user: true }, byId: false },
    { ...anyMember, path: `/v1/users/:id/${resource}`, access: { admin: 'read:users' }, byId: true },
  ];
}
