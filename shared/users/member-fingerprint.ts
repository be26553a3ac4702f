import type { KeyedHash } from '../platform/secrets/keyed-hash.js';

/** The key of members' fingerprints (docs/users.md#fingerprint). */
export type FingerprintKey = KeyedHash<'member-fingerprint'>;

/** Hex characters of a fingerprint: 128 bits, which no tenant's members collide in. */
const FINGERPRINT_LENGTH = 32;

/**
 * decisions §14: a stable, non-reversible identifier of a member within its tenant, a keyed hash of
 * the tenant's and the member's ids. It is stored with the member when it registers, so it stays
 * what it was given as even if the platform secret is replaced, and removed by erasure.
 */
export function memberFingerprint(key: FingerprintKey, tenantId: string, memberId: string): string {
  return key.hex(tenantId, memberId).slice(0, FINGERPRINT_LENGTH);
}
