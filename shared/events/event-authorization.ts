import { PLATFORM_TOKEN_ISSUER } from '../platform/auth/admin-token.js';
import type { JwksCache } from '../platform/auth/jwks-cache.js';
import { unverifiedIssuer } from '../platform/auth/token-issuer.js';
import { verifyUserToken } from '../platform/auth/user-token.js';
import { UnauthorizedError } from '../platform/errors/app-errors.js';
import type { EventType } from '../event-types/event-type.entity.js';
import type { SecretCheck } from '../platform/secrets/secret-token.js';
import type { TenantAuthentication } from '../platform/auth/user-token.js';
import { EVENT_TYPE_SECRET_PREFIX } from '../event-types/event-type-service.js';

/** docs/events.md#authorization: both 401s of POST /events answer `status: 'error'`. */
const invalid = () => new UnauthorizedError('Invalid authorization', { envelopeStatus: 'error' });
const mismatch = () => new UnauthorizedError('Authorization does not match declared type', { envelopeStatus: 'error' });

/**
 * docs/events.md#authorization: a public type takes the reporting user's own
 * token (and the user is the subject); a private type takes `Bearer <EVENT_TYPE_SECRET>`. A
 * credential of the other kind is "does not match declared type"; a wrong one of the right kind
 * is "Invalid authorization". Returns the user's authIdentifier for a public type.
 */
export async function authorizeReport(
  type: EventType,
  secret: SecretCheck | undefined,
  token: string | undefined,
  authentication: TenantAuthentication | null | undefined,
  jwks: JwksCache,
): Promise<string | undefined> {
  if (!token) throw invalid();
  const isJwt = token.split('.').length === 3;
  if (type.isPrivate) {
    if (isJwt) throw mismatch();
    if (!secret?.matches(token)) throw invalid();
    return undefined;
  }
  if (token.startsWith(EVENT_TYPE_SECRET_PREFIX) || !isJwt || unverifiedIssuer(token) === PLATFORM_TOKEN_ISSUER)
    throw mismatch();
  try {
    return await verifyUserToken(token, authentication, jwks);
  } catch {
    throw invalid();
  }
}
