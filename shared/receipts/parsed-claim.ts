import type { ReceiptLineItem } from './receipt.entity.js';
import { zonedInstant } from '../kernel/zoned-time.js';

/** Preparsed mode (docs/receipts.md#claims): each field a value read with a confidence (0 to 1). */
export interface ParsedField {
  value: string;
  confidence: number;
}

export const PARSED_FIELDS = [
  'serviceDate',
  'serviceTime',
  'subtotal',
  'total',
  'barcode',
  'locationIdentifier',
  'locationAddress',
  'merchantName',
  'merchantLegalName',
  'language',
  'currency',
] as const;
export type ParsedFieldName = (typeof PARSED_FIELDS)[number];

/** What a parse yields, from the caller (preparsed mode) or the OCR parser, which may also read a transaction id. */
export interface ParsedClaim {
  ocrConfidence: number;
  lineItems: ReceiptLineItem[];
  fields: Partial<Record<ParsedFieldName | 'transactionId', ParsedField>>;
  formatSlug?: string;
  /** What the OCR parser read beside the fields (docs/receipts.md#ocr): what confirmed the total (consistency.ts, TotalEvidence). */
  metadata?: { totalEvidence?: string };
}

/** The receipt's columns a parse fills, normalised: numbers as numbers, dates as YYYY-MM-DD, times as HH:MM:SS. */
export interface ParsedColumns {
  ocrConfidence: number;
  fieldConfidences: Record<string, number>;
  lineItems: ReceiptLineItem[];
  serviceDate: string | null;
  serviceTime: string | null;
  servedAt: Date | null;
  total: number | null;
  subtotal: number | null;
  barcode: string | null;
  transactionId: string | null;
  locationIdentifier: string | null;
  locationAddress: string | null;
  merchantName: string | null;
  /** The company's legal name, when the receipt prints it beside the trading name that is the merchant. */
  merchantLegalName: string | null;
  language: string | null;
  /** ISO 4217, upper case. */
  currency: string | null;
  formatSlug?: string | null;
}

/**
 * A parse as the receipt stores it. A value that cannot be read as its type (a total of "twelve",
 * a date of "yesterday") is left out rather than guessed; its confidence stays on record, and the
 * INSUFFICIENT_DATA check then sends a claim missing its total or date to manual review.
 */
export function parsedColumns(parsed: ParsedClaim, timezone: string): ParsedColumns {
  const text = (name: ParsedFieldName | 'transactionId') => parsed.fields[name]?.value.trim() || null;
  const serviceDate = isoDate(text('serviceDate'));
  const serviceTime = isoTime(text('serviceTime'));
  return {
    ocrConfidence: parsed.ocrConfidence,
    fieldConfidences: Object.fromEntries(
      Object.entries(parsed.fields).map(([name, field]) => [name, field.confidence]),
    ),
    lineItems: parsed.lineItems,
    serviceDate,
    serviceTime,
    servedAt: serviceDate ? zonedInstant(serviceDate, serviceTime ?? '00:00:00', timezone) : null,
    total: amount(text('total')),
    subtotal: amount(text('subtotal')),
    barcode: text('barcode'),
    transactionId: text('transactionId'),
    locationIdentifier: text('locationIdentifier'),
    locationAddress: text('locationAddress'),
    merchantName: text('merchantName'),
    merchantLegalName: text('merchantLegalName'),
    language: text('language'),
    currency: currencyCode(text('currency')),
    ...(parsed.formatSlug !== undefined ? { formatSlug: parsed.formatSlug } : {}),
  };
}

/** Larger amounts are misreadings (or mischief), and would not fit the receipt's columns. */
export const MAX_AMOUNT = 1e9;

/** "12.50", "€12,50", "1,234.50", "1.234,50" → a number; anything else, or anything past MAX_AMOUNT, → null. */
export function amount(text: string | null): number | null {
  if (!text) return null;
  const cleaned = text.replace(/[^\d.,-]/g, '');
  if (!/\d/.test(cleaned)) return null;
  const lastSeparator = Math.max(cleaned.lastIndexOf('.'), cleaned.lastIndexOf(','));
  // The last separator followed by one or two digits is the decimal point; any other is grouping.
  const decimals =
    lastSeparator >= 0 && cleaned.length - lastSeparator - 1 <= 2 ? cleaned.slice(lastSeparator + 1) : '';
  const whole = (decimals ? cleaned.slice(0, lastSeparator) : cleaned).replace(/[.,]/g, '');
  const value = Number(`${whole}${decimals ? `.${decimals}` : ''}`);
  return Number.isFinite(value) && Math.abs(value) < MAX_AMOUNT ? value : null;
}

/** "eur" or "EUR" → "EUR"; anything but three letters is no ISO 4217 code. */
function currencyCode(text: string | null): string | null {
  return text && /^[A-Za-z]{3}$/.test(text) ? text.toUpperCase() : null;
}

function isoDate(text: string | null): string | null {
  const match = text ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) : null;
  if (!match) return null;
  const date = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? null : text;
}

/** HH:MM or HH:MM:SS → HH:MM:SS, as the receipt stores a time; anything else is no time. */
export function isoTime(text: string | null): string | null {
  const match = text ? /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(text) : null;
  return match ? `${match[1]}:${match[2]}:${match[3] ?? '00'}` : null;
}
