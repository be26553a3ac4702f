import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from './derived-key.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * What the platform must keep readable but not in the clear (AES-256-GCM): the first answers
 * replayed for idempotency keys, which carry credentials shown once and members' personal data,
 * the webhook signing secrets it signs with, and voucher codes. Each use has its own key, derived from
 * PLATFORM_TOKEN_SECRET; what was sealed under a replaced secret no longer opens. Each text is
 * bound to what it belongs to (GCM's associated data, `context`), so a value moved onto another
 * row does not open either.
 */
export class Sealer {
  private readonly key: Buffer;

  constructor(platformSecret: string, purpose: 'idempotency-response' | 'webhook-secret' | 'voucher-code') {
    this.key = derivedKey(platformSecret, purpose);
  }

  seal(text: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  /** The text, or undefined when it was sealed under another key, for another context, or altered. */
  open(sealed: string, context: string): string | undefined {
    const bytes = Buffer.from(sealed, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
