/**
 * The unverified `iss` of a JWT, only to choose which verification applies (platform admin token
 * or the tenant's end-user token); the verification that follows decides.
 */
export function unverifiedIssuer(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof claims.iss === 'string' ? claims.iss : undefined;
  } catch {
    return undefined;
  }
}
