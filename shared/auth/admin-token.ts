import { SignJWT, jwtVerify } from 'jose';
import { UnauthorizedError } from '../errors/app-errors.js';

/** The `iss` of every admin token; a tenant's own issuer may never equal it. */
export const PLATFORM_TOKEN_ISSUER = 'tally-platform';
const ALGORITHM = 'HS256';

export interface AdminTokenRequest {
  tenantId: string;
  scopes: string[];
  subject: string;
  /** jose time span, e.g. '1h', '30m', '7d'. */
  ttl: string;
}

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** An admin token bound to one tenant by its audience (decisions.md §2). */
export async function mintAdminToken(secret: string, request: AdminTokenRequest): Promise<string> {
  return new SignJWT({ scope: request.scopes.join(' ') })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(PLATFORM_TOKEN_ISSUER)
    .setAudience(request.tenantId)
    .setSubject(request.subject)
    .setIssuedAt()
    .setExpirationTime(request.ttl)
    .sign(key(secret));
}

export interface VerifiedAdminToken {
  subject: string;
  scopes: string[];
}

/** Any failure, including a token for another tenant, is one 401 that reveals nothing more. */
export async function verifyAdminToken(secret: string, token: string, tenantId: string): Promise<VerifiedAdminToken> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: [ALGORITHM],
      issuer: PLATFORM_TOKEN_ISSUER,
      audience: tenantId,
      requiredClaims: ['sub', 'iat', 'exp'],
      clockTolerance: 30,
    });
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    return { subject: payload.sub ?? '', scopes: scope.split(' ').filter(Boolean) };
  } catch {
    throw new UnauthorizedError('Invalid or expired admin token');
  }
}
