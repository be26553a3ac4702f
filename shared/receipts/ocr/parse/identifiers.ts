import { roundConfidence } from './confidence.js';
import { plainText } from './fold-text.js';
import { editDistance } from './similarity.js';

export type IdentifierName = 'transactionId' | 'barcode' | 'locationIdentifier';

/** Each identifier found, with the confidence of the row it was printed on. */
export type Identifiers = Partial<Record<IdentifierName, { value: string; confidence: number }>>;

/**
 * An identifier's label makes it unambiguous, but no arithmetic checks its digits: however
 * clearly its row was read, a digit may be wrong.
 */
const MOST_SURE = 0.95;

const NUMBER_MARK = String.raw`(?:[\s.-]?(?:NO\b\.?|NR\b\.?|N[°º]|#|NUMBER\b|ID\b|NUM\b\.?))?\s?[:#.]?\s?`;
const VALUE = String.raw`([A-Z0-9](?:[A-Z0-9/-]*[A-Z0-9])?)`;
/**
 * The labels a transaction's number is printed after: Trans, Trans #, Order #, Check #, Bon-Nr.,
 * Ticket n°, Invoice No, Receipt No, and their kin. The number holds a digit: "Check: Table" is no id.
 */
const TRANSACTION = new RegExp(
  String.raw`\b(?:TRANS(?:ACTION|AKTION)?|TXN|TRX|ORDER|CHECK|CHK|BON|BELEG|TICKET|INVOICE|RECEIPT|RCPT|FACTURE|QUITTUNG|VORGANG|REF(?:ERENCE)?)` +
    NUMBER_MARK +
    VALUE,
);
const TICKET_NUMBER_FIRST = new RegExp(
  String.raw`\bN[°º]\s?(?:DE\s)?(?:TICKET|TRANSACTION|FACTURE)\s?[:#.]?\s?` + VALUE,
);
const STORE = new RegExp(
  String.raw`\b(?:STORE|SHOP|BRANCH|FILIALE|FIL|MAGASIN|SITE|LOCATION|MARKT)` +
    NUMBER_MARK +
    String.raw`([A-Z0-9][A-Z0-9-]*)`,
);
/** A barcode row: 8 to 14 digits, perhaps in groups, perhaps labelled, and nothing else. */
const BARCODE = /^(?:BARCODE|EAN|CODE)?\W*(\d[\d ]{6,20}\d)\W*$/;

/** Transaction labels long enough to be recognised with one letter misread in place ("Tickel n°", "Receipl No"). */
const LABEL_WORDS = ['TICKET', 'RECEIPT', 'INVOICE', 'TRANSACTION'];

/**
 * The number after a transaction label. A stray mark before the "#" ("Trans 6#479053") leaves the
 * number after it; letters read for digits in a number ("0O0141") are put right.
 */
function transactionNumber(text: string): string | undefined {
  const plain = text.replace(
    /[A-Z]{6,}/g,
    (word) => LABEL_WORDS.find((label) => label.length === word.length && editDistance(word, label) === 1) ?? word,
  );
  const match = TRANSACTION.exec(plain) ?? TICKET_NUMBER_FIRST.exec(plain);
  if (!match) return undefined;
  const after = /^#(\d{3,})\b/.exec(plain.slice(match.index + match[0].length));
  const value = after?.[1] ?? match[1]!;
  return /^[\dOI]+$/.test(value) ? value.replace(/O/g, '0').replace(/I/g, '1') : value;
}

/**
 * Reads the transaction number and the store's number, each from the first row that prints one,
 * and the receipt's barcode from the last row of digits below the header (a row of digits in the
 * header is a phone number printed without its label). Numbers with a date's or a phone's shape
 * are no identifiers.
 */
export function readIdentifiers(rows: { text: string; confidence: number }[], headerLength = 0): Identifiers {
  const found: Identifiers = {};
  for (const [index, row] of rows.entries()) {
    const plain = plainText(row.text);
    if (/\b(?:TEL|PHONE|FAX|TELEFON)\b/.test(plain)) continue;
    const reading = (value: string) => ({ value, confidence: roundConfidence(Math.min(MOST_SURE, row.confidence)) });
    const transaction = transactionNumber(plain);
    if (!found.transactionId && transaction && /\d/.test(transaction) && !/^\d{1,2}[/-]\d{1,2}/.test(transaction))
      found.transactionId = reading(transaction);
    const store = STORE.exec(plain)?.[1];
    if (!found.locationIdentifier && store && /\d/.test(store)) found.locationIdentifier = reading(store);
    const digits = BARCODE.exec(plain)?.[1]?.replace(/ /g, '');
    if (index >= headerLength && digits && digits.length >= 8 && digits.length <= 14) found.barcode = reading(digits);
  }
  return found;
}
