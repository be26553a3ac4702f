import type { Context, MiddlewareHandler } from 'hono';
import { PLATFORM_TOKEN_ISSUER } from '../../shared/platform/auth/admin-token.js';
import type { Principal } from '../../shared/platform/auth/principal.js';
import { grantsScope, type Scope } from '../../shared/platform/auth/scopes.js';
import { unverifiedIssuer } from '../../shared/platform/auth/token-issuer.js';
import { verifyUserToken } from '../../shared/platform/auth/user-token.js';
import type { AppContext } from '../../shared/context.js';
import { UnauthorizedError } from '../../shared/platform/errors/app-errors.js';
import type { AppEnv } from '../app-env.js';

/**
 * Which callers a route admits, beyond the API key every /v1 route needs. `eventTypeSecret`: the
 * bearer may also be a private event type's secret, so who may call depends on the event type and
 * the route's service checks the token, not this middleware (POST /v1/events).
 */
export type Access =
  | { admin: Scope; user?: false }
  | { admin: Scope; user: true }
  | { user: true; admin?: undefined; eventTypeSecret?: true };

/**
 * Reads the bearer token, decides whether it is an admin token (issued by the platform) or an end
 * user's (issued by the tenant's identity provider), verifies it, and checks it against `access`.
 * Every failure is 401 UnauthorizedError, a missing scope included (docs/api-conventions.md#authentication).
 */
export function authorize(context: AppContext, access: Access): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = await authenticate(context, c);
    if (principal.kind === 'admin') {
      if (!access.admin) throw new UnauthorizedError('This operation takes an end-user token, not an admin token');
      if (!grantsScope(principal.scopes, access.admin))
        throw new UnauthorizedError(`The token lacks the scope ${access.admin}`);
    } else if (!access.user) {
      throw new UnauthorizedError(`This operation takes an admin token with the scope ${access.admin}`);
    }
    c.set('principal', principal);
    await next();
  };
}

async function authenticate(context: AppContext, c: Context<AppEnv>): Promise<Principal> {
  const token = bearerToken(c.req.header('authorization'));
  const tenant = c.var.tenant;
  if (unverifiedIssuer(token) === PLATFORM_TOKEN_ISSUER) {
    const { subject, scopes } = await context.adminTokens.verify(token, tenant.id);
    return { kind: 'admin', subject, scopes };
  }
  const authIdentifier = await verifyUserToken(token, tenant.authentication, context.jwks);
  return { kind: 'user', authIdentifier };
}

export function bearerToken(header: string | undefined): string {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw new UnauthorizedError('Missing bearer token in the Authorization header');
  return match[1];
}
