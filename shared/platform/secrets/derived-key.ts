import { hkdfSync } from 'node:crypto';

/**
 * Every key the platform keeps data under, by purpose: one secret (PLATFORM_TOKEN_SECRET) and a
 * key derived from it per use (HKDF-SHA256, the purpose as its label), so a key serves one use and
 * the operator keeps one secret (docs/operations.md#the-platform-secret).
 */
export type KeyPurpose =
  | 'idempotency-response'
  | 'webhook-secret'
  | 'voucher-code'
  | 'voucher-code-hash'
  | 'member-fingerprint'
  | 'referral-source-user';

export function derivedKey(platformSecret: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', platformSecret, 'tally', purpose, 32));
}
