import { plainText } from './fold-text.js';
import type { Row } from './rows.js';

/**
 * Rows that are no name: contact details, addresses, the document's own title, greetings, a
 * restaurant's table or order number, the payment ("CASH") printed above the items, the shop's
 * terms ("GOODS SOLD ARE NOT RETURNABLE", printed at the foot, read first off a folded slip).
 */
const CONTACT =
  /\b(?:TEL|PHONE|FAX|WWW|HTTPS?|EMAIL|E-MAIL|VAT|TRN|SIRET|UST|STEUER|TAX)\b|\bST\.?-?NR|@|\.(?:COM|CO\.UK|DE|FR|AE)\b/;
const TITLE =
  /\b(?:RECEIPT|INVOICE|TICKET|QUITTUNG|KASSENBON|BELEG|RECU|FACTURE|WELCOME|WILLKOMMEN|BIENVENUE|THANK|DANKE|MERCI|DATE|DATUM|COPY|DUPLICATE|YOUR ORDER|ORDER NO|ORDER NUMBER)\b|^CASH(?: SALES?| BILL)?$|^\W*TABLE\b|\bTABLE ?(?:NO\.? ?)?\d|\b(?:RETURNABLE|REFUNDABLE|EXCHANGEABLE)\b/;
/** The Malay road and estate words of STREET, which begin a Malaysian address row. */
export const MALAY_STREET = ['JALAN', 'JLN', 'LORONG', 'TAMAN', 'TMN', 'PERSIARAN'];
const STREET = new RegExp(
  String.raw`\b(?:STREET|ST|ROAD|RD|AVENUE|AVE|LANE|LN|DRIVE|DR|BLVD|BOULEVARD|WAY|PLACE|SQUARE|HIGH ST|STRASSE|STR|WEG|PLATZ|ALLEE|GASSE|RUE|AV|PLACE|CHEMIN|QUAI|MALL|CENTRE|CENTER|SUITE|UNIT|FLOOR|PO BOX|${MALAY_STREET.join('|')}|LEBUH|LEBUHRAYA|KAMPUNG|BANDAR|IELA|GATVE|PROSPEKTS|BULVARIS|SOSEJA)\b`,
);
/** Malaysia's states, whose names end its addresses. */
export const MALAYSIAN_STATES = [
  'SELANGOR',
  'JOHOR',
  'PERAK',
  'KEDAH',
  'PAHANG',
  'MELAKA',
  'SABAH',
  'SARAWAK',
  'PENANG',
  'KELANTAN',
  'TERENGGANU',
  'PERLIS',
  'SEMBILAN',
];
const MALAYSIAN_STATE = `(?:${MALAYSIAN_STATES.join('|')})`;
/**
 * What marks a Malaysian address: a state's name ending it ("SELANGOR DARUL EHSAN") or after a
 * number ("81760 JOHOR BAHRU"), the country after a state or a number ("KLANG SELANGOR D.E,
 * MALAYSIA"; "STARBUCKS COFFEE MALAYSIA" is a name), or a Malay road or estate word beginning the
 * row ("TAMAN BERKELEY"), which holds no digit as often as not.
 */
const MALAYSIAN_ADDRESS = new RegExp(
  String.raw`\b(?:DARUL (?:EHSAN|TAKZIM|AMAN|MAKMUR|RIDZUAN|KHUSUS|NAIM)|KUALA LUMPUR|WILAYAH PERSEKUTUAN)\b` +
    String.raw`|(?:\d|\bD\.? ?E\b|\b${MALAYSIAN_STATE})\W*MALAYSIA\W*$` +
    // A state's name after a number: "NO.53 JALAN ... SELANGOR DARUL EHSAN" read with specks between,
    // "81760 JOHOR BAHRU" (a name's registration number is taken out first: "KEDAI PERAK (123456-X)").
    String.raw`|\d.*\b${MALAYSIAN_STATE}\b` +
    String.raw`|^\W*(?:${MALAY_STREET.join('|')})\b`,
);
/**
 * A Malaysian company's registration number printed with its name ("TEO HENG STATIONERY
 * (001451697-M) & BOOKS"): digits and a check letter in brackets, no part of the name.
 */
export const REGISTRATION_NUMBER = /\s*\(\s*[A-Z]{0,3}\d{5,}-?[A-Z]\s*\)/g;
/** A British postcode, printed with or without its space (the OCR drops it): "LS1 4AB", "SW1A1AA". */
export const GB_POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b/;
const POSTCODE = new RegExp(`${GB_POSTCODE.source}|\\b\\d{5}\\b|\\b[A-Z]{2} \\d{5}\\b`);

/** A row of the merchant's address or contact details, which receipts print under its name. */
export function isAddressOrContact(text: string): boolean {
  return isAddress(text) || CONTACT.test(plainText(text));
}

function isAddress(text: string): boolean {
  const plain = plainText(text).replace(REGISTRATION_NUMBER, '');
  return (/\d/.test(plain) && STREET.test(plain)) || POSTCODE.test(plain) || MALAYSIAN_ADDRESS.test(plain);
}

/**
 * A row that could be a merchant's name: mostly letters, and none of the above. A row of a cased
 * script without a capital letter is no name either: shops print their names in capitals or
 * title case, and such a row is a note, a description or a name written on the slip by hand.
 */
export function couldBeName(text: string): boolean {
  // A registration number printed with the name is no part of it ("KEDAI UBAT (12345-X)").
  const plain = plainText(text).replace(REGISTRATION_NUMBER, '');
  const letters = plain.replace(/[^A-Z]/g, '').length;
  return (
    letters >= 3 &&
    (/\p{Lu}/u.test(text) || !/\p{Ll}/u.test(text)) &&
    letters >= plain.replace(/\s/g, '').length * 0.6 &&
    !CONTACT.test(plain) &&
    !TITLE.test(plain) &&
    !isAddress(text)
  );
}

/**
 * The header: the rows above the first that prints an amount or a date, where receipts put the
 * merchant's name and address (at most the first eight rows: a page with no amounts has no header
 * worth the name).
 */
export function headerRows(rows: Row[], isBody: (row: Row) => boolean): Row[] {
  const end = rows.findIndex(isBody);
  return rows.slice(0, Math.min(end < 0 ? rows.length : end, 8));
}

/**
 * Specks and rules printed beside a line come back as stray marks at its edges (": Bistro Lumiere:",
 * "ne GREEN GROCER = K"): edge tokens of punctuation alone are dropped; for a name on a row of its
 * own (`strict`), so are edge tokens of a single letter, or in lower case on an upper-case row
 * ("AL NOOR", "Gas & Go" and an item's "1L" stay).
 */
export function withoutEdgeNoise(text: string, strict = true): string {
  const tokens = text.split(/\s+/).filter(Boolean);
  const upperCaseLine = tokens.filter((token) => token === token.toUpperCase()).length > tokens.length / 2;
  const noise = (token: string) =>
    !/[\p{L}\p{N}]/u.test(token) ||
    (strict &&
      ((token.replace(/[^\p{L}\p{N}]/gu, '').length === 1 && !/\d/.test(token)) ||
        (upperCaseLine && /[a-z]/.test(token))));
  // Indexes, not shift(): shifting a long row's tokens one at a time takes time by its square.
  let first = 0;
  let last = tokens.length - 1;
  while (last > first && noise(tokens[first]!)) first++;
  while (last > first && noise(tokens[last]!)) last--;
  return tokens
    .slice(first, last + 1)
    .join(' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N})'.!&]+$/gu, '');
}

/** The address printed under the name: the header's address rows, in order. */
export function readAddress(header: Row[]): { value: string; confidence: number } | undefined {
  // A phone number printed without its label has a postcode's run of digits, but no letters.
  const rows = header.filter(
    (row) =>
      isAddress(row.text) &&
      !CONTACT.test(plainText(row.text)) &&
      plainText(row.text).replace(/[^A-Z]/g, '').length >= 3,
  );
  if (!rows.length) return undefined;
  return {
    value: rows.map((row) => row.text.trim()).join(', '),
    confidence: rows.reduce((least, row) => Math.min(least, row.confidence), 1),
  };
}
