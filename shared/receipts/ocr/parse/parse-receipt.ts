import type { ParsedClaim, ParsedField } from '../../parsed-claim.js';
import type { OcrPage } from '../ocr-page.js';
import { amountsIn, amountAtEnd, cents } from './amounts.js';
import { settleTotals } from './consistency.js';
import { datesIn, saleDate } from './dates.js';
import { headerRows, readAddress } from './header.js';
import { readIdentifiers } from './identifiers.js';
import { priceColumn, priceOf, readItems, withoutMisreadSubtotal, type PricedRow } from './items.js';
import { labelOf, type LabelKind } from './labels.js';
import { readLocale } from './locale.js';
import { readMerchant } from './merchant.js';
import { printedRows, skewCandidates, type Row } from './rows.js';
import { readFoot } from './foot.js';
import { saleTime, timesIn } from './times.js';
import { roundConfidence } from './confidence.js';

export interface ParseHints {
  /** The tenant's configured merchants, then its venues' names: a header row nearly one of them, whole, gives it as configured (the most alike; of equally alike, the first). */
  knownMerchants?: string[];
}

/** Labels that end the item area: what follows them is the foot. */
const FOOT_STARTS: LabelKind[] = ['subtotal', 'total'];

/**
 * Reads a receipt from the OCR engine's page (docs/receipts.md#ocr): printed rows from the word
 * boxes, the locale from the receipt's own evidence, the header's merchant and address, the sale's
 * date and time, the items above the foot, and the totals the foot's arithmetic settles. Each
 * field carries a confidence; a field the parser is unsure of is left out rather than guessed.
 */
export function parseReceipt(page: OcrPage, hints: ParseHints = {}): ParsedClaim {
  const readings = skewCandidates(page).map((skew) => readAtSkew(page, hints, skew));
  return readings.reduce((best, reading) => (reading.agreement > best.agreement ? reading : best)).claim;
}

/**
 * The page read with its rows levelled by one tilt, and how well the reading agrees with itself:
 * the items adding up to the subtotal or the total counts most, a confirmed total next. Of equally
 * agreeing readings the level one wins: a tilt must earn its place by the arithmetic.
 */
function readAtSkew(page: OcrPage, hints: ParseHints, skew: number): { claim: ParsedClaim; agreement: number } {
  const rows = printedRows(page, skew);
  const texts = rows.map((row) => row.text);
  const locale = readLocale(texts);
  const fields: ParsedClaim['fields'] = {};
  const set = (name: keyof ParsedClaim['fields'], value: string | undefined, confidence: number) => {
    if (value) fields[name] = { value, confidence: roundConfidence(confidence) } satisfies ParsedField;
  };

  const isBody = (row: Row) =>
    amountsIn(row.text).length > 0 || datesIn(row.text, locale.dayFirst).length > 0 || timesIn(row.text).length > 0;
  const header = headerRows(rows, isBody);
  const merchant = readMerchant(header, hints.knownMerchants);
  set('merchantName', merchant?.value, merchant?.confidence ?? 0);
  set('merchantLegalName', merchant?.legalName?.value, merchant?.legalName?.confidence ?? 0);
  const address = readAddress(header);
  set('locationAddress', address?.value, address?.confidence ?? 0);

  const date = saleDate(rows, locale.dayFirst, (text) => timesIn(text).length > 0);
  set('serviceDate', date?.value, date?.confidence ?? 0);
  const time = saleTime(rows, date?.rowIndex);
  set('serviceTime', time?.value, time?.confidence ?? 0);

  const { lineItems, foot, total, subtotal, confirmed } = readItemsAndTotals(rows, header.length);
  set('total', total?.value.toFixed(2), total?.confidence ?? 0);
  set('subtotal', subtotal?.value.toFixed(2), subtotal?.confidence ?? 0);
  set('currency', locale.currency?.value, locale.currency?.confidence ?? 0);
  set('language', locale.language?.value, locale.language?.confidence ?? 0);

  const identifiers = readIdentifiers(rows, header.length);
  for (const name of ['transactionId', 'barcode', 'locationIdentifier'] as const)
    set(name, identifiers[name]?.value, identifiers[name]?.confidence ?? 0);

  const itemsAgree =
    foot.itemsSum !== undefined &&
    [...foot.subtotals.map((candidate) => candidate.value), ...(total ? [total.value] : [])].some(
      (value) => cents(value) === cents(foot.itemsSum!),
    );
  return {
    claim: {
      ocrConfidence: roundConfidence(page.confidence),
      lineItems,
      fields,
      ...(total ? { metadata: { totalEvidence: total.evidence } } : {}),
    },
    agreement: (itemsAgree ? 2 : 0) + (confirmed ? 1 : 0),
  };
}

/**
 * The items of the item area (from the top to the first subtotal or total) and the totals the
 * foot's arithmetic settles.
 */
function readItemsAndTotals(rows: Row[], headerLength: number) {
  const labelled = rows.map((row) => ({ row, label: labelOf(row.text) }));
  const footStart = labelled.findIndex(
    ({ row, label }) => label && FOOT_STARTS.includes(label.kind) && amountAtEnd(row.text) !== undefined,
  );
  // The item area starts at the top: a header's last rows may be an item's name printed above
  // its quantity and price, or a table's column heads. Header rows that are neither become no item.
  const body = labelled.slice(0, footStart < 0 ? undefined : footStart);
  const column = priceColumn(rows.slice(headerLength));
  const area: PricedRow[] = body.map(({ row, label }) => ({
    row,
    ...(label ? { label } : {}),
    ...withPrice(priceOf(row, column)),
  }));
  const { items: lineItems, subtotal: misreadSubtotal } = withoutMisreadSubtotal(readItems(area));
  const foot = readFoot(labelled.slice(headerLength), lineItems);
  if (misreadSubtotal)
    foot.subtotals.push({ value: misreadSubtotal.totalPrice!, confidence: misreadSubtotal.confidence ?? 0 });
  return { lineItems, foot, ...settleTotals(foot) };
}

function withPrice<T>(price: T | undefined): { price?: T } {
  return price === undefined ? {} : { price };
}
