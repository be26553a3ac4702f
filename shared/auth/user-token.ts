import { jwtVerify, type JWTVerifyOptions } from 'jose';
import { UnauthorizedError } from '../errors/app-errors.js';
import type { TenantAuthentication } from '../tenants/tenant.entity.js';
import type { JwksCache } from './jwks-cache.js';

/**
 * Verifies an end user's token against the tenant's settings (decisions.md §2): the tenant's one
 * algorithm only (so neither `none` nor an HS/RS swap passes), its issuer, `sub`, `iat` and `exp`
 * present, 30 s of clock tolerance. Returns the user's authIdentifier, the `sub`.
 */
export async function verifyUserToken(token: string, authentication: TenantAuthentication | null | undefined, jwks: JwksCache): Promise<string> {
  if (!authentication) throw new UnauthorizedError('This tenant accepts no end-user tokens');
  const options: JWTVerifyOptions = {
    algorithms: [authentication.algorithm],
    issuer: authentication.issuer,
    requiredClaims: ['sub', 'iss', 'iat', 'exp'],
    clockTolerance: 30,
  };
  try {
    const { payload } =
      authentication.algorithm === 'HS256'
        ? await jwtVerify(token, new TextEncoder().encode(authentication.sharedKey), options)
        : await jwtVerify(token, jwks.get(authentication.jwksUrl), options);
    if (!payload.sub) throw new Error('empty sub');
    return payload.sub;
  } catch {
    throw new UnauthorizedError('Invalid or expired user token');
  }
}
