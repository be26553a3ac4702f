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

/**
 * A stored hash's check that remembers the last candidate it passed: the hot path verifies the same
 * API key or event secret on every request, and hashing it each time showed as ~5% of POST
 * /events' CPU. Another candidate is hashed as before; both comparisons are constant-time.
 */
export class SecretCheck {
  private passed: Buffer | undefined;

  constructor(private readonly storedHash: string) {}

  matches(candidate: string): boolean {
    const bytes = Buffer.from(candidate, 'utf8');
    if (this.passed && bytes.length === this.passed.length && timingSafeEqual(bytes, this.passed)) return true;
    if (!secretMatches(candidate, this.storedHash)) return false;
    this.passed = bytes;
    return true;
  }
}
