import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { TtlCache } from '../cache/ttl-cache.js';
import { UnauthorizedError } from '../errors/app-errors.js';

/** The `iss` of every admin token; a tenant's own issuer may never equal it. */
export const PLATFORM_TOKEN_ISSUER = 'tally-platform';
const ALGORITHM = 'HS256';
const CLOCK_TOLERANCE_SECONDS = 30;

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

/** An admin token bound to one tenant by its audience (docs/api-conventions.md#authentication). */
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
async function verifyAdminToken(
  secretKey: KeyObject,
  token: string,
  tenantId: string,
): Promise<VerifiedAdminToken & { expiresAt: number }> {
  try {
    const { payload } = await jwtVerify(token, secretKey, {
      algorithms: [ALGORITHM],
      issuer: PLATFORM_TOKEN_ISSUER,
      audience: tenantId,
      requiredClaims: ['sub', 'iat', 'exp'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    return {
      subject: payload.sub ?? '',
      scopes: scope.split(' ').filter(Boolean),
      expiresAt: (payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000,
    };
  } catch {
    throw new UnauthorizedError('Invalid or expired admin token');
  }
}

/**
 * Admin tokens as the API checks them: a till or back office sends the same token with every
 * request, so each token's verification is kept, by tenant and the token's exact text, until the
 * token expires or for a minute at most. A token that fails is checked afresh every time. The key
 * is imported once rather than for every check.
 */
export class AdminTokenVerifier {
  private readonly key: KeyObject;
  private readonly verified = new TtlCache<VerifiedAdminToken>(60_000, 10_000);

  constructor(secret: string) {
    this.key = createSecretKey(key(secret));
  }

  async verify(token: string, tenantId: string): Promise<VerifiedAdminToken> {
    // Kept by digest: the cache holds no usable token.
    const cacheKey = createHash('sha256').update(tenantId).update(' ').update(token).digest('base64');
    const cached = this.verified.get(cacheKey);
    if (cached) return cached;
    const { expiresAt, ...verified } = await verifyAdminToken(this.key, token, tenantId);
    // Shared by every request that sends the token: frozen, so none can change another's.
    Object.freeze(verified.scopes);
    this.verified.set(cacheKey, Object.freeze(verified), expiresAt - Date.now());
    return verified;
  }
}
