import type { ReceiptLineItem } from '../../receipt.entity.js';
import { amountAtEnd, amountsIn, cents, withDigits, type Amount } from './amounts.js';
import { datesIn } from './dates.js';
import { withoutEdgeNoise } from './header.js';
import { plainText } from './fold-text.js';
import type { Label } from './labels.js';
import { quantityInDescription, quantityRow, type Quantity } from './quantities.js';
import { characterWidth, type Row } from './rows.js';
import { roundConfidence } from './confidence.js';

/** A row of the item area with what it was read as. */
export interface PricedRow {
  row: Row;
  label?: Label;
  /** Its amount in the price column, if it has one there. */
  price?: Amount;
}

export interface PriceColumn {
  right: number;
  tolerance: number;
}

/**
 * The right edge of the price column: where most rows' last amounts end, within a few characters
 * (the largest such cluster; of equal ones, the rightmost). Amounts printed left of it are unit
 * prices and quantities ("2 x 4.50" above an item), not prices.
 */
export function priceColumn(rows: Row[]): PriceColumn | undefined {
  const edges = rows.flatMap((row) => (amountAtEnd(row.text) ? [row.words.at(-1)!] : []));
  if (!edges.length) return undefined;
  const widths = edges.map(characterWidth).sort((a, b) => a - b);
  const tolerance = Math.max(3 * widths[Math.floor(widths.length / 2)]!, 1);
  const rights = edges.map((word) => word.box.x1);
  const clusterSize = (right: number) => rights.filter((other) => Math.abs(other - right) <= tolerance).length;
  const right = rights.reduce((best, right) =>
    clusterSize(right) > clusterSize(best) || (clusterSize(right) === clusterSize(best) && right > best) ? right : best,
  );
  return { right, tolerance };
}

/** The row's price, when its last amount ends in the price column (or right of it: a row printed askew). */
export function priceOf(row: Row, column: PriceColumn | undefined): Amount | undefined {
  const price = amountAtEnd(row.text);
  if (!price || !column) return price;
  return row.words.at(-1)!.box.x1 >= column.right - column.tolerance ? price : undefined;
}

/** The header words of a table's columns: Item | Qty | Price | Amount, and their kin. */
const TABLE_HEADER =
  /\b(?:QTY|QTE|QUANTITY|MENGE|ANZ|ANZAHL|QUANTITE)\b.*\b(?:PRICE|PRIX|PREIS|AMOUNT|TOTAL|MONTANT|BETRAG|SUMME|EP|UNIT)\b|\b(?:PRICE|PRIX|PREIS)\b.*\b(?:QTY|QTE|MENGE)\b/;

const NOT_AN_ITEM =
  /\b(?:TIME|ZEIT|UHRZEIT|HEURE|DATE|DATUM|TEL|PHONE|CASHIER|KASSIERER|CAISSIER|SERVER|TABLE ?(?:NO|#|\d)|GUESTS|COVERS|TERMINAL|AUTH|APPROVAL)\b/;

/**
 * The line items of the item area, top to bottom. A row priced in the price column is an item
 * unless a label makes it something else (a discount, a tender, a tax, a deposit) or it is a tax
 * table's row (several amounts and a rate). A row with no price may be an item's name printed
 * above its quantity and price ("Bananas" then "1.132 kg @ £0.75/kg  0.85"), a quantity printed
 * above the item ("2 x 4.50" then "Sea Bass  9.00"), or a unit price printed below it ("@ 9.50
 * each"). A table (a header row naming Qty and Price) is read by its columns: the last amount is
 * the line's total, the one before it the unit price, a whole number before them the quantity.
 */
export function readItems(area: PricedRow[]): ReceiptLineItem[] {
  const items: ReceiptLineItem[] = [];
  let name: Row | undefined;
  let pendingQuantity: Quantity | undefined;
  let table = false;
  for (const { row, label, price } of area) {
    const plain = plainText(row.text);
    // A date row's time reads like a price ("14:32"): such a row holds no item.
    if (datesIn(row.text, true).length) {
      name = undefined;
      continue;
    }
    if (TABLE_HEADER.test(plain) && !price) {
      table = true;
      name = undefined;
      continue;
    }
    if (!price) {
      const quantity = quantityRow(row.text);
      const previous = items.at(-1);
      if (quantity && previous && !name && describes(quantity, previous)) {
        attachUnitPrice(previous, quantity.unitPrice!);
      } else if (quantity && !Number.isNaN(quantity.quantity)) {
        pendingQuantity = quantity;
      } else if (!label && /\p{L}{2}/u.test(row.text) && !NOT_AN_ITEM.test(plain)) {
        name = row;
      } else {
        name = undefined;
      }
      continue;
    }
    if (label || price.value <= 0 || isTaxTableRow(row.text)) {
      name = undefined;
      pendingQuantity = undefined;
      continue;
    }
    const before = withoutLeaders(row.text.slice(0, price.start));
    const ownQuantity = quantityRow(before);
    if (ownQuantity && !Number.isNaN(ownQuantity.quantity) && name) {
      items.push(item(name.text, { ...ownQuantity }, price, Math.min(name.confidence, row.confidence)));
    } else {
      const described = table ? tableColumns(before, price) : quantityInDescription(before);
      const quantity = described.quantity ?? pendingQuantity;
      const description = cleanDescription(described.description);
      if (/\p{L}{2}/u.test(description) && !NOT_AN_ITEM.test(plainText(description)))
        items.push(item(description, quantity, price, row.confidence));
    }
    name = undefined;
    pendingQuantity = undefined;
  }
  return items;
}

/**
 * The items without a last one priced at the sum of all above it: that is a subtotal whose label
 * the OCR misread ("Sublolal", "MERCHIANDISE TOTAL"), returned apart as one.
 */
export function withoutMisreadSubtotal(items: ReceiptLineItem[]): {
  items: ReceiptLineItem[];
  subtotal?: ReceiptLineItem;
} {
  const last = items.at(-1);
  const above = items.slice(0, -1);
  const sumAbove = above.reduce((sum, item) => sum + cents(item.totalPrice ?? 0), 0);
  return above.length >= 2 && last && cents(last.totalPrice ?? 0) === sumAbove
    ? { items: above, subtotal: last }
    : { items };
}

/** The line's total and the count it was bought in give the unit price, unless it is printed. */
function item(description: string, quantity: Quantity | undefined, price: Amount, confidence: number): ReceiptLineItem {
  const count = quantity && quantity.quantity > 0 ? quantity.quantity : 1;
  const unitPrice = quantity?.unitPrice ?? Math.round((price.value / count) * 100) / 100;
  return {
    description: cleanDescription(description),
    quantity: count,
    ...(quantity?.unit ? { unit: quantity.unit } : {}),
    unitPrice,
    totalPrice: price.value,
    confidence: roundConfidence(confidence),
  };
}

/**
 * Whether a quantity row printed under an item is that item's ("@ 9.50 each" under a price that
 * is a whole number of them, "3 @ 19.00 each" under 57.00), rather than the next item's
 * quantity printed above it.
 */
function describes(quantity: Quantity, item: ReceiptLineItem): boolean {
  if (quantity.unitPrice === undefined || (item.quantity !== 1 && item.quantity !== quantity.quantity)) return false;
  if (Number.isNaN(quantity.quantity)) return true;
  return cents(quantity.quantity * quantity.unitPrice) === cents(item.totalPrice ?? 0);
}

/** "@ 9.50 each" under an item: its unit price, and so its quantity. */
function attachUnitPrice(item: ReceiptLineItem, unitPrice: number): void {
  const count = unitPrice > 0 ? item.totalPrice! / unitPrice : 0;
  if (Math.abs(count - Math.round(count)) < 0.01 && count >= 1) {
    item.unitPrice = unitPrice;
    item.quantity = Math.round(count);
  }
}

/**
 * A table row's text before its total: the description, then a quantity and a unit price in
 * either order. The two numbers are told apart by the arithmetic (quantity times unit price makes
 * the total, to the cent as printed); a quantity may have decimals (litres, kilos) and a unit
 * price three (fuel); when both orders make it, a whole quantity wins. A single whole number is
 * the quantity.
 */
function tableColumns(before: string, price: Amount): { description: string; quantity?: Quantity } {
  const tokens = withDigits(before).trim().split(/\s+/);
  const numbers: number[] = [];
  while (numbers.length < 2 && tokens.length > 1 && /^\d+(?:[.,]\d{1,3})?$/.test(tokens.at(-1)!))
    numbers.unshift(Number(tokens.pop()!.replace(',', '.')));
  const description = tokens.join(' ');
  if (numbers.length === 2) {
    const [first, second] = numbers as [number, number];
    const makesTotal = (quantity: number, unitPrice: number) => Math.abs(quantity * unitPrice - price.value) < 0.01;
    // Both orders make the total when the numbers are 1.50 and 4: a whole quantity is the likelier.
    const readings = [
      { quantity: first, unitPrice: second },
      { quantity: second, unitPrice: first },
    ].filter((reading) => makesTotal(reading.quantity, reading.unitPrice));
    const reading = readings.find((candidate) => Number.isInteger(candidate.quantity)) ?? readings[0];
    if (reading) return { description, quantity: reading };
  }
  if (numbers.length === 1 && Number.isInteger(numbers[0]) && numbers[0]! > 0)
    return { description, quantity: { quantity: numbers[0]! } };
  return quantityInDescription(before);
}

function withoutLeaders(text: string): string {
  return text
    .replace(/\s*\.{2,}.*$|\s+\.[\w.]{5,}\s*$/, '')
    .replace(/[\s.:-]+$/, '')
    .trim();
}

/** A VAT table's row: a rate and several amounts ("A 20% 10.00 2.00 12.00"). */
function isTaxTableRow(text: string): boolean {
  return /\d\s?%/.test(text) && amountsIn(text).length >= 2;
}

/** Dot leaders and their misreadings ("Croque .........cc.ccccvoe") and edge specks are no description. */
function cleanDescription(text: string): string {
  const cut = withoutLeaders(text).replace(/(?:\s+(?:EUR|GBP|USD|AED)|\s*[$€£])\s*$/, '');
  return withoutEdgeNoise(cut, false) || cut.trim();
}
