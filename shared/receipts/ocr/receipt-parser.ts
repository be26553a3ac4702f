import { amount, type ParsedClaim, type ParsedField } from '../parsed-claim.js';
import type { ReceiptLineItem } from '../receipt.entity.js';
import type { OcrLine } from './ocr-page.js';
import type { ParseHints } from './parse-hints.js';

/** An amount at the end of a line: "4.50", "€4,50", "1,234.50", "4.50 EUR", "-2.00". */
const TRAILING_AMOUNT =
  /(?:[$€£]\s*)?(-?\d{1,3}(?:[,.\s]\d{3})*[.,;]\d{2}|-?\d+[.,;]\d{2})\s*(?:[A-Z]{3}|[$€£])?\s*[A-Z]?$/;
const TOTAL = /\b(?:grand\s+total|total(?:\s+due)?|amount\s+due|balance\s+due|to\s+pay)\b/i;
const SUBTOTAL = /\bsub\s*-?\s*total\b/i;
/** Lines with an amount that are not items: taxes, payments, change, savings. */
const NOT_AN_ITEM =
  /\b(?:tax|vat|gst|cash|card|visa|mastercard|change|tender(?:ed)?|paid|payment|discount total|savings|rounding|balance)\b/i;
/** Where a receipt prints the merchant's name. */
const HEADER_LINES = 4;
/**
 * Marks that name one currency when printed on a line with an amount; "$" names too many
 * (dollars of the US, Canada, Australia…) to tell, so it names none.
 */
const CURRENCY_MARK = /[€£]|\b(?:EUR|GBP|USD|AED|CHF)\b/g;
const CURRENCY_OF_MARK: Record<string, string> = { '€': 'EUR', '£': 'GBP' };
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Reads the fields docs/receipts.md#ocr names (merchant, date, time, totals, line items) out of a
 * receipt's recognised lines, each with the confidence of the line it came from. Receipts print
 * these in many ways; the parser knows the common ones, and leaves out what it cannot place rather
 * than guess (the reviewer then sends a claim without a total or a date to a person).
 *
 * Dates written d/m/y and m/d/y look alike: a first number over 12 is a day, a second over 12 is a
 * day, and otherwise the day comes first, except on receipts in dollars, where the month does.
 * A header line naming one of the tenant's known merchants (`hints`) gives that merchant as the
 * tenant spells it, which the INVALID_MERCHANT check compares with its list.
 */
export function parseReceiptText(
  read: {
    lines: Pick<OcrLine, 'text' | 'confidence'>[];
    confidence: number;
  },
  hints: ParseHints = {},
): ParsedClaim {
  const lines = read.lines
    .map((line) => ({ ...line, text: line.text.replace(/\s+/g, ' ').trim() }))
    .filter((line) => line.text);
  const dollars = lines.some((line) => line.text.includes('$'));
  const fields: ParsedClaim['fields'] = {};
  const found = (line: Pick<OcrLine, 'confidence'>, value: string): ParsedField => ({
    value,
    confidence: round(line.confidence),
  });

  const header = lines.slice(0, HEADER_LINES);
  const known = knownMerchantIn(header, hints.knownMerchants ?? []);
  const merchant = header.find((line) => isMerchantLine(line.text));
  if (known) fields.merchantName = found(known.line, known.name);
  else if (merchant) fields.merchantName = found(merchant, withoutEdgeNoise(merchant.text, true));
  const currency = printedCurrency(lines);
  if (currency) fields.currency = currency;

  for (const line of lines) {
    const date = fields.serviceDate ? undefined : readDate(line.text, dollars);
    if (date) fields.serviceDate = found(line, date);
    const time = fields.serviceTime ? undefined : readTime(line.text);
    if (time) fields.serviceTime = found(line, time);
  }

  const totalIndex = lines.findIndex(
    (line) => TOTAL.test(line.text) && !SUBTOTAL.test(line.text) && amountOf(line.text) !== undefined,
  );
  if (totalIndex >= 0) fields.total = found(lines[totalIndex]!, amountOf(lines[totalIndex]!.text)!);
  const subtotal = lines.find((line) => SUBTOTAL.test(line.text) && amountOf(line.text) !== undefined);
  if (subtotal) fields.subtotal = found(subtotal, amountOf(subtotal.text)!);

  for (const line of lines) {
    const barcode = fields.barcode
      ? undefined
      : /^(?:barcode[:\s]*)?(\d[\d ]{6,18}\d)$/i.exec(line.text)?.[1]?.replace(/ /g, '');
    if (barcode && barcode.length >= 8 && barcode.length <= 14) fields.barcode = found(line, barcode);
    const transaction = fields.transactionId
      ? undefined
      : /\b(?:trans(?:action)?|txn|receipt|invoice)\s*(?:id|no\.?|number|#)\s*[:#]?\s*([A-Z0-9][A-Z0-9-]{3,})/i.exec(
          line.text,
        )?.[1];
    if (transaction) fields.transactionId = found(line, transaction);
    const store = fields.locationIdentifier
      ? undefined
      : /\bstore\s*(?:#|no\.?|id|number)\s*[:#]?\s*([A-Z0-9][A-Z0-9-]*)/i.exec(line.text)?.[1];
    if (store) fields.locationIdentifier = found(line, store);
  }

  const itemsEnd = [totalIndex, lines.findIndex((line) => SUBTOTAL.test(line.text))].filter((index) => index >= 0);
  const lastItemLine = itemsEnd.length ? Math.min(...itemsEnd) : lines.length;
  const lineItems = lines.slice(0, lastItemLine).flatMap((line) => {
    const item = lineItem(line);
    return item ? [item] : [];
  });

  return { ocrConfidence: round(read.confidence), lineItems, fields };
}

function round(confidence: number): number {
  return Math.round(Math.min(1, Math.max(0, confidence)) * 1000) / 1000;
}

/** The amount at the end of a line, normalised to "1234.50"; a semicolon is a decimal comma misread. */
function amountOf(text: string): string | undefined {
  const raw = TRAILING_AMOUNT.exec(text)?.[1];
  const value = raw === undefined ? null : amount(raw.replace(/;/g, ','));
  return value === null ? undefined : value.toFixed(2);
}

/**
 * Specks and rules printed beside a line come back as stray marks at its edges (": Bistro Lumiere:",
 * "ne GREEN GROCER = K"). Edge tokens of punctuation alone are dropped; for a merchant's name, a
 * line of its own, so are edge tokens of one or two characters, or in lower case on an upper-case
 * line (an item's "1L" or "(Paperback)" stays).
 */
function withoutEdgeNoise(text: string, strict: boolean): string {
  const tokens = text.split(' ').filter(Boolean);
  const upperCaseLine = tokens.filter((token) => token === token.toUpperCase()).length > tokens.length / 2;
  const noise = (token: string) =>
    !/[\p{L}\p{N}]/u.test(token) ||
    (strict && (token.replace(/[^\p{L}\p{N}]/gu, '').length <= 2 || (upperCaseLine && /[a-z]/.test(token))));
  while (tokens.length > 1 && noise(tokens[0]!)) tokens.shift();
  while (tokens.length > 1 && noise(tokens.at(-1)!)) tokens.pop();
  return tokens.join(' ').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N})]+$/gu, '');
}

/**
 * The first of the known merchants (in the order given) whose name one of the lines holds, as
 * whole words, without regard to case, accents or punctuation: "ACME-COFFEE LTD" holds "Acme
 * Coffee", "MULLER" holds "Müller", "ACMEWAY" does not hold "Acme".
 */
function knownMerchantIn<Line extends Pick<OcrLine, 'text'>>(
  lines: Line[],
  knownMerchants: string[],
): { name: string; line: Line } | undefined {
  const words = lines.map((line) => ({ line, text: ` ${plainWords(line.text)} ` }));
  for (const name of knownMerchants) {
    const wanted = plainWords(name);
    const line = wanted ? words.find(({ text }) => text.includes(` ${wanted} `))?.line : undefined;
    if (line) return { name, line };
  }
  return undefined;
}

/** Lower case, accents dropped, each run of anything but letters and digits one space. */
function plainWords(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The currency most of the marks beside amounts name, its confidence the share of the marks that
 * agree times how well their lines were read: one misread "£" among "€" prices costs a little;
 * as many marks for two currencies is no reading at all.
 */
function printedCurrency(lines: Pick<OcrLine, 'text' | 'confidence'>[]): ParsedField | undefined {
  const votes = new Map<string, number[]>();
  for (const line of lines) {
    if (amountOf(line.text) === undefined) continue;
    for (const [mark] of line.text.matchAll(CURRENCY_MARK)) {
      const code = CURRENCY_OF_MARK[mark] ?? mark;
      votes.set(code, [...(votes.get(code) ?? []), line.confidence]);
    }
  }
  const ranked = [...votes].sort(([, a], [, b]) => b.length - a.length);
  if (!ranked.length || ranked[0]![1].length === ranked[1]?.[1].length) return undefined;
  const [code, confidences] = ranked[0]!;
  const marks = ranked.reduce((sum, [, each]) => sum + each.length, 0);
  const mean = confidences.reduce((sum, each) => sum + each, 0) / confidences.length;
  return { value: code, confidence: round((confidences.length / marks) * mean) };
}

function isMerchantLine(text: string): boolean {
  const letters = text.replace(/[^A-Za-z]/g, '').length;
  return (
    letters >= 3 &&
    letters >= text.replace(/\s/g, '').length * 0.6 &&
    !TOTAL.test(text) &&
    !/\b(?:tel|phone|www|http|receipt|invoice|date|thank|welcome|merci)\b/i.test(text)
  );
}

/** A line item: a description and the amount it cost; "2 x 3.50" or "2 @ 3.50" gives quantity and unit price. */
function lineItem(line: Pick<OcrLine, 'text' | 'confidence'>): ReceiptLineItem | undefined {
  const amount = amountOf(line.text);
  if (amount === undefined || NOT_AN_ITEM.test(line.text) || TOTAL.test(line.text) || readDate(line.text, false))
    return undefined;
  const totalPrice = Number(amount);
  // Dot leaders between a description and its price come back as dots and stray letters: cut them.
  let description = line.text
    .replace(TRAILING_AMOUNT, '')
    .replace(/\s*\.{2,}.*$|\s+\.[\w.]{5,}\s*$/, '')
    .trim();
  let unitPrice = totalPrice;
  let count = 1;
  // "2 x Tea @ 1.80", "Tea 2 @ 1.80", "2 x 1.80 Tea".
  const quantity =
    /^(?<count>\d+)\s*[xX]\s+(?<name>.*?)\s*@\s*[$€£]?(?<price>\d+[.,]\s?\d{2})/.exec(description) ??
    /^(?<name>.*?)\s+(?<count>\d+)\s*[xX@]\s*[$€£]?(?<price>\d+[.,]\s?\d{2})/.exec(description) ??
    /^(?<count>\d+)\s*[xX@]\s*[$€£]?(?<price>\d+[.,]\s?\d{2})\s+(?<name>.*)$/.exec(description);
  if (quantity?.groups) {
    count = Number(quantity.groups.count);
    unitPrice = Number(quantity.groups.price!.replace(/\s/g, '').replace(',', '.'));
    description = quantity.groups.name!.trim();
  }
  description = withoutEdgeNoise(description.replace(/[\s.:-]+$/, ''), false);
  if (description.replace(/[^A-Za-z]/g, '').length < 2) return undefined;
  return { description, quantity: count, unitPrice, totalPrice, confidence: round(line.confidence) };
}

function readDate(text: string, monthFirst: boolean): string | undefined {
  const iso = /\b(20\d{2})[-/.](\d{1,2})[-/.](\d{1,2})\b/.exec(text);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const numeric = /\b(\d{1,2})[/.-](\d{1,2})[/.-](20\d{2}|\d{2})\b/.exec(text);
  if (numeric) {
    const [a, b] = [Number(numeric[1]), Number(numeric[2])];
    const year = numeric[3]!.length === 2 ? 2000 + Number(numeric[3]) : Number(numeric[3]);
    const dayFirst = a > 12 || (b <= 12 && !monthFirst);
    return dayFirst ? isoDate(year, b, a) : isoDate(year, a, b);
  }
  const named = /\b(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?,?\s+(20\d{2})\b/.exec(text) ?? undefined;
  if (named) return isoDate(Number(named[3]), MONTHS.indexOf(named[2]!.toLowerCase()) + 1, Number(named[1]));
  const american = /\b([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(20\d{2})\b/.exec(text);
  if (american)
    return isoDate(Number(american[3]), MONTHS.indexOf(american[1]!.toLowerCase()) + 1, Number(american[2]));
  return undefined;
}

function isoDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return undefined;
  return date.toISOString().slice(0, 10);
}

function readTime(text: string): string | undefined {
  const match = /\b([01]?\d|2[0-3])[:.]([0-5]\d)(?:[:.]([0-5]\d))?\s*([AaPp][Mm])?\b/.exec(text);
  if (!match || (!match[4] && !/:/.test(match[0]))) return undefined;
  let hour = Number(match[1]);
  if (match[4]) hour = (hour % 12) + (/p/i.test(match[4]) ? 12 : 0);
  return `${String(hour).padStart(2, '0')}:${match[2]}:${match[3] ?? '00'}`;
}
