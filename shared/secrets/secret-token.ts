import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credentials we hand out (API keys `tly_…`, event type secrets `ets_…`): random, prefixed so a
 * leaked one is recognisable, stored only as a SHA-256 hash (they carry 256 bits of entropy, so a
 * fast hash is enough) and compared in constant time.
 */
export function generateSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(candidate: string, storedHash: string): boolean {
  const candidateHash = Buffer.from(hashSecret(candidate), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return candidateHash.length === stored.length && timingSafeEqual(candidateHash, stored);
}
