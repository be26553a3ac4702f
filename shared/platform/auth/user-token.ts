import { jwtVerify, type JWTVerifyOptions } from 'jose';
import { UnauthorizedError } from '../errors/app-errors.js';
import type { JwksCache } from './jwks-cache.js';

const CLOCK_TOLERANCE_SECONDS = 30;

/** How a tenant's end-user tokens are verified (docs/api-conventions.md#authentication): a shared key, or the keys of a JWKS address. */
export type TenantAuthentication =
  { algorithm: 'HS256'; issuer: string; sharedKey: string } | { algorithm: 'RS256'; issuer: string; jwksUrl: string };

/**
 * Verifies an end user's token against the tenant's settings
 * (docs/api-conventions.md#authentication): the tenant's one algorithm only (so neither `none` nor
 * an HS/RS swap passes), its issuer, `sub`, `iat` and `exp` present, 30 s of clock tolerance.
 * Returns the user's authIdentifier, the `sub`: a non-empty string, as an authIdentifier is (a
 * number is refused, not looked up). A token issued beyond the tolerance in the future is refused
 * too: jose checks `iat` only against a maximum age.
 */
export async function verifyUserToken(
  token: string,
  authentication: TenantAuthentication | null | undefined,
  jwks: JwksCache,
): Promise<string> {
  if (!authentication) throw new UnauthorizedError('This tenant accepts no end-user tokens');
  const options: JWTVerifyOptions = {
    algorithms: [authentication.algorithm],
    issuer: authentication.issuer,
    requiredClaims: ['sub', 'iss', 'iat', 'exp'],
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
  };
  try {
    const { payload } =
      authentication.algorithm === 'HS256'
        ? await jwtVerify(token, new TextEncoder().encode(authentication.sharedKey), options)
        : await jwtVerify(token, jwks.get(authentication.jwksUrl), options);
    const subject: unknown = payload.sub;
    if (typeof subject !== 'string' || subject === '') throw new Error('sub is not a non-empty string');
    if (payload.iat! > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw new Error('issued in the future');
    return subject;
  } catch {
    throw new UnauthorizedError('Invalid or expired user token');
  }
}
