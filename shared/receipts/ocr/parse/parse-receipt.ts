import type { ReceiptLineItem } from '../../receipt.entity.js';
import type { ParsedClaim, ParsedField } from '../../parsed-claim.js';
import type { OcrPage } from '../ocr-page.js';
import { amountsIn, amountAtEnd, cents } from './amounts.js';
import { settleTotals, type Candidate, type Foot } from './consistency.js';
import { datesIn, saleDate } from './dates.js';
import { headerRows, readAddress } from './header.js';
import { readIdentifiers } from './identifiers.js';
import { priceColumn, priceOf, readItems, withoutMisreadSubtotal, type PricedRow } from './items.js';
import { labelOf, type LabelKind } from './labels.js';
import { readLocale } from './locale.js';
import { readMerchant } from './merchant.js';
import { printedRows, type Row } from './rows.js';
import { saleTime, timesIn } from './times.js';

export interface ParseHints {
  /** The tenant's configured merchants and venue names: a header row nearly one of them gives it as configured. */
  knownMerchants?: string[];
}

/** Labels that end the item area: what follows them is the foot. */
const FOOT_STARTS: LabelKind[] = ['subtotal', 'total'];
/** Identifiers are read with the confidence of a plain, well-read row: their labels make them unambiguous. */
const IDENTIFIER_CONFIDENCE = 0.9;

/**
 * Reads a receipt from the OCR engine's page (docs/receipts.md#ocr): printed rows from the word
 * boxes, the locale from the receipt's own evidence, the header's merchant and address, the sale's
 * date and time, the items above the foot, and the totals the foot's arithmetic settles. Each
 * field carries a confidence; a field the parser is unsure of is left out rather than guessed.
 */
export function parseReceipt(page: OcrPage, hints: ParseHints = {}): ParsedClaim {
  const rows = printedRows(page);
  const texts = rows.map((row) => row.text);
  const locale = readLocale(texts);
  const fields: ParsedClaim['fields'] = {};
  const set = (name: keyof ParsedClaim['fields'], value: string | undefined, confidence: number) => {
    if (value) fields[name] = { value, confidence: round(confidence) } satisfies ParsedField;
  };

  const isBody = (row: Row) =>
    amountsIn(row.text).length > 0 || datesIn(row.text, locale.dayFirst).length > 0 || timesIn(row.text).length > 0;
  const header = headerRows(rows, isBody);
  const merchant = readMerchant(header, rows.slice(0, 10), hints.knownMerchants);
  set('merchantName', merchant?.value, merchant?.confidence ?? 0);
  const address = readAddress(header);
  set('locationAddress', address?.value, address?.confidence ?? 0);

  const date = saleDate(rows, locale.dayFirst, (text) => timesIn(text).length > 0);
  set('serviceDate', date?.value, date?.confidence ?? 0);
  const time = saleTime(rows, date?.rowIndex);
  set('serviceTime', time?.value, time?.confidence ?? 0);

  const labelled = rows.map((row) => ({ row, label: labelOf(row.text) }));
  const footStart = labelled.findIndex(
    ({ row, label }) => label && FOOT_STARTS.includes(label.kind) && amountAtEnd(row.text) !== undefined,
  );
  // The item area starts at the top: a header's last rows may be an item's name printed above
  // its quantity and price, or a table's column heads. Header rows that are neither become no item.
  const body = labelled.slice(0, footStart < 0 ? undefined : footStart);
  const column = priceColumn(rows.slice(header.length));
  const area: PricedRow[] = body.map(({ row, label }) => ({
    row,
    ...(label ? { label } : {}),
    ...withPrice(priceOf(row, column)),
  }));
  const { items: lineItems, subtotal: misreadSubtotal } = withoutMisreadSubtotal(readItems(area));
  const foot = readFoot(labelled.slice(header.length), lineItems);
  if (misreadSubtotal)
    foot.subtotals.push({ value: misreadSubtotal.totalPrice!, confidence: misreadSubtotal.confidence ?? 0 });
  const { total, subtotal } = settleTotals(foot);
  set('total', total?.value.toFixed(2), total?.confidence ?? 0);
  set('subtotal', subtotal?.value.toFixed(2), subtotal?.confidence ?? 0);
  set('currency', locale.currency?.value, locale.currency?.confidence ?? 0);
  set('language', locale.language, 0.8);

  const identifiers = readIdentifiers(texts, header.length);
  set('transactionId', identifiers.transactionId, IDENTIFIER_CONFIDENCE);
  set('barcode', identifiers.barcode, IDENTIFIER_CONFIDENCE);
  set('locationIdentifier', identifiers.locationIdentifier, IDENTIFIER_CONFIDENCE);

  return { ocrConfidence: round(page.confidence), lineItems, fields };
}

function withPrice<T>(price: T | undefined): { price?: T } {
  return price === undefined ? {} : { price };
}

/** The labelled amounts below the header, sorted by what they are, for the consistency check. */
function readFoot(labelled: { row: Row; label: ReturnType<typeof labelOf> }[], items: ReceiptLineItem[]): Foot {
  const foot: Foot = {
    totals: [],
    subtotals: [],
    taxes: [],
    discounts: [],
    savings: [],
    charges: [],
    tenders: [],
    changes: [],
  };
  if (items.length) foot.itemsSum = items.reduce((sum, item) => sum + cents(item.totalPrice ?? 0), 0) / 100;
  for (const { row, label } of labelled) {
    const amount = amountAtEnd(row.text);
    if (!amount || datesIn(row.text, true).length) continue;
    const candidate: Candidate = { value: amount.value, confidence: row.confidence };
    switch (label?.kind) {
      case 'total':
        if (amount.value > 0) foot.totals.push(candidate);
        break;
      case 'subtotal':
        foot.subtotals.push(candidate);
        break;
      case 'tax':
        foot.taxes.push(amount.value);
        break;
      case 'discount':
        foot.discounts.push(Math.abs(amount.value));
        break;
      case 'savings':
        foot.savings.push(Math.abs(amount.value));
        break;
      case 'tip':
      case 'deposit':
      case 'rounding':
        foot.charges.push(amount.value);
        break;
      case 'tender':
        foot.tenders.push(amount.value);
        break;
      case 'change':
        foot.changes.push(amount.value);
        break;
      case undefined:
        if (amount.value < 0) foot.discounts.push(-amount.value);
        break;
    }
  }
  return foot;
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
}
