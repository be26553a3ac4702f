import type { KeyedHash } from '../platform/secrets/keyed-hash.js';

/** The key referrals keep a person's sourceUserId under (docs/referrals.md#who-is-kept). */
export type SourceUserKey = KeyedHash<'referral-source-user'>;

/**
 * A referral's or a click's `sourceUserId` as it is stored: a keyed hash, with the tenant, so the
 * once-per-code rule still tells the same person from another while no email address (or other
 * id a source knows the person by) stays behind, erasure or not, and the same address in two
 * tenants is two values. It is matched exactly, as it was sent: case and all.
 */
export function hashedSourceUser(key: SourceUserKey, tenantId: string, sourceUserId: string): string {
  return key.hex(tenantId, sourceUserId);
}
