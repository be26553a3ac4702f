import { randomInt } from 'node:crypto';
import { KeyedHash } from '../platform/secrets/keyed-hash.js';
import { Sealer } from '../platform/secrets/sealer.js';
import { inPrintedForm, type CodeForm } from '../platform/text/printed-code.js';

/** Generated codes avoid 0/O, 1/I/L: read off a phone and typed at a till, they must not be mistaken. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 12 characters of 31: about 59 bits, so a code cannot be guessed, in groups of four to be read out. */
const GENERATED_LENGTH = 12;

/**
 * Generated codes' printed form, in which every code, uploaded ones too, is matched
 * (docs/rewards.md#codes): a code typed in another case, or with other dashes or spaces, is the
 * same code. A generated code is already in it, so the keys of codes generated before codes were
 * matched so are the keys they have now.
 */
export const VOUCHER_CODE_FORM: CodeForm = { letterCase: 'upper', groupLength: 4 };

/** A code given to upload or to validate holds a character besides dashes and spaces: nothing is left of it otherwise. */
export const VOUCHER_CODE_PATTERN = '[^\\s-]';

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

  /** The code's lookup key in its tenant: that of its printed form, whatever case, dashes and spaces it was given with. */
  hash(tenantId: string, code: string): string {
    return this.keyOf(tenantId, inPrintedForm(code, VOUCHER_CODE_FORM));
  }

  /**
   * The keys a till's code may be stored under: its printed form's first, then, for a code uploaded
   * before codes were matched in that form and whose printed form's key another code already held,
   * the code exactly as given (its key then): Migration20261128150000 keyed every other one anew.
   */
  lookupKeys(tenantId: string, code: string): [printed: string, exact: string] {
    return [this.hash(tenantId, code), this.keyOf(tenantId, code)];
  }

  private keyOf(tenantId: string, text: string): string {
    return this.codeHash.hex(tenantId, text);
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
  const characters = Array.from({ length: GENERATED_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return inPrintedForm(characters, VOUCHER_CODE_FORM);
}
