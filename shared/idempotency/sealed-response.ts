import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Stored first answers are sealed with AES-256-GCM: a replay must return the first response
 * whole, and creating answers carry credentials shown once (an event type's secret, a webhook's
 * signing secret) and members' personal data, which must not sit in the database in the clear.
 * The key is derived from PLATFORM_TOKEN_SECRET; answers sealed under a replaced secret no longer
 * open. Each answer is bound to its tenant and idempotency key (GCM's associated data), so a row
 * moved onto another key does not open either.
 */
export class ResponseSealer {
  private readonly key: Buffer;

  constructor(platformSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', platformSecret, 'tally', 'idempotency-response', 32));
  }

  seal(text: string, tenantId: string, key: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(`${tenantId}\n${key}`));
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  /** The text, or undefined when it was sealed under another key or altered. */
  open(sealed: string, tenantId: string, key: string): string | undefined {
    const bytes = Buffer.from(sealed, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(`${tenantId}\n${key}`));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
