import type { Context } from 'hono';
import type { TSchema } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { findTokenUser, findUser } from '../../shared/users/user-service.js';
import type { User } from '../../shared/users/user.entity.js';
import { entityManager, type App, type AppEnv } from '../app-env.js';
import type { Access } from '../middleware/authorize.js';
import { UserIdParams } from '../users/schema.js';
import {
  registerRoute,
  type DeclaredFieldsOnly,
  type HandlerResult,
  type Responses,
  type RouteDefinition,
} from './define-route.js';
import type { InputDefinition } from './request-input.js';

/** The member a /users/{id} or /users/me route is about, always within the caller's tenant. */
export function memberOf(c: Context<AppEnv>): Promise<User> {
  const principal = c.var.principal;
  if (principal?.kind === 'user') return findTokenUser(entityManager(c), c.var.tenant.id, principal.authIdentifier);
  return findUser(entityManager(c), c.var.tenant.id, c.req.param('id') ?? '');
}

/** What one of a member resource's two routes says of itself in the API reference, and sets apart from the other. */
interface MemberRoutePart<Body> {
  summary: string;
  operationId: string;
  description: string;
  /** Who may call, where not the usual: the member's own user token for /me, `read:users` for /{id}. */
  access?: Access;
  /** The body, where the two take different ones. */
  body?: Body;
}

type MemberRoute<Body, Query extends InputDefinition | undefined, R extends Responses, Result> = Omit<
  RouteDefinition<Body extends TSchema ? Body : undefined, undefined, Query, R, Result>,
  'path' | 'operationId' | 'summary' | 'description' | 'access' | 'params' | 'body'
> & {
  /** What follows `/v1/users/me/` and `/v1/users/:id/`: `wallet`, `events`; empty for the member itself. */
  resource: string;
  own: MemberRoutePart<Body>;
  anyMember: MemberRoutePart<Body>;
};

/**
 * Declares both routes to one member's resource: `/v1/users/me/<resource>` for the member's own
 * user token, and `/v1/users/:id/<resource>` for an admin token, the member found by its id,
 * authIdentifier or account number. Both answer through memberOf, and share everything but their
 * texts (and, where they differ, their access and body).
 */
export function defineMemberRoute<
  Body extends TSchema | undefined = undefined,
  Query extends InputDefinition | undefined = undefined,
  const R extends Responses = Responses,
  Result extends HandlerResult<R> = HandlerResult<R>,
>(app: App, context: AppContext, route: MemberRoute<Body, Query, R, Result> & DeclaredFieldsOnly<Result, R>): void {
  const { resource, own, anyMember, ...shared } = route;
  // A body on one route only would reach the other's handler as undefined; a write open to
  // read:users would let a read-only token change members: both are refused as the app is built.
  if ((own.body === undefined) !== (anyMember.body === undefined))
    throw new Error(`${resource || 'users'}: give both member routes a body, or neither`);
  const admin = anyMember.access?.admin;
  if (route.method !== 'get' && !admin?.startsWith('admin:'))
    throw new Error(`${resource || 'users'}: a ${route.method} member route names the admin: scope it needs`);
  const suffix = resource ? `/${resource}` : '';
  const paths: { part: MemberRoutePart<Body>; path: string; access: Access; params?: typeof UserIdParams }[] = [
    { part: own, path: `/v1/users/me${suffix}`, access: { user: true } },
    { part: anyMember, path: `/v1/users/:id${suffix}`, access: { admin: 'read:users' }, params: UserIdParams },
  ];
  for (const { part, path, access, params } of paths) {
    const { body, ...text } = part;
    registerRoute(app, context, {
      ...shared,
      ...text,
      path,
      access: part.access ?? access,
      ...(params ? { params } : {}),
      ...(body ? { body } : {}),
    });
  }
}
