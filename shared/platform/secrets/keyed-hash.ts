import { createHmac } from 'node:crypto';
import { derivedKey, type KeyPurpose } from './derived-key.js';

/**
 * A keyed hash for one purpose (HMAC-SHA256 under a key derived from PLATFORM_TOKEN_SECRET): what
 * must be matched or told apart without being kept in the clear, and without anyone who holds the
 * database alone being able to recompute it from a guess. The purpose is part of the type, so a
 * hash of one purpose is not handed where another's is expected.
 */
export class KeyedHash<Purpose extends KeyPurpose = KeyPurpose> {
  private readonly key: Buffer;

  constructor(
    platformSecret: string,
    readonly purpose: Purpose,
  ) {
    this.key = derivedKey(platformSecret, purpose);
  }

  /**
   * The hex HMAC of the parts joined by newlines. Only the last part may hold a newline (the
   * others are ids), so two lists of parts never hash the same text.
   */
  hex(...parts: string[]): string {
    return createHmac('sha256', this.key).update(parts.join('\n')).digest('hex');
  }
}
