import { randomInt } from 'node:crypto';
import { KeyedHash } from '../platform/secrets/keyed-hash.js';
import { Sealer } from '../platform/secrets/sealer.js';

/** Generated codes avoid 0/O, 1/I/L: read off a phone and typed at a till, they must not be mistaken. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 12 characters of 31: about 59 bits, so a code cannot be guessed, in groups of four to be read out. */
const GENERATED_LENGTH = 12;

/**
 * How voucher codes are kept (docs/rewards.md#codes): a database dump does not hand them out. Each
 * code is stored twice, neither in the clear: a keyed hash (HMAC-SHA256 under a key derived from
 * PLATFORM_TOKEN_SECRET, with the tenant), unique in the tenant, which finds a code a till presents;
 * and the code sealed (AES-256-GCM, bound to its row), opened only for its voucher's owner after
 * redemption and for the till that validates it.
 */
export class VoucherCodes {
  private readonly codeHash: KeyedHash<'voucher-code-hash'>;
  private readonly sealer: Sealer;

  constructor(platformSecret: string) {
    this.codeHash = new KeyedHash(platformSecret, 'voucher-code-hash');
    this.sealer = new Sealer(platformSecret, 'voucher-code');
  }

  /** The code's lookup key in its tenant. Codes match exactly, as printed: case and all. */
  hash(tenantId: string, code: string): string {
    return this.codeHash.hex(tenantId, code);
  }

  seal(tenantId: string, codeId: string, code: string): string {
    return this.sealer.seal(code, `${tenantId}:${codeId}`);
  }

  /** The code, or undefined when it was sealed under another PLATFORM_TOKEN_SECRET or moved to another row. */
  open(tenantId: string, codeId: string, sealed: string): string | undefined {
    return this.sealer.open(sealed, `${tenantId}:${codeId}`);
  }
}

/** A new random code for a reward without a pool: `XXXX-XXXX-XXXX` from an unambiguous alphabet. */
export function generateCode(): string {
  let code = '';
  for (let index = 0; index < GENERATED_LENGTH; index++) {
    if (index > 0 && index % 4 === 0) code += '-';
    code += ALPHABET[randomInt(ALPHABET.length)];
  }
  return code;
}
