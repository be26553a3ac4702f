import type { ReceiptLineItem } from '../../receipt.entity.js';
import { amountAtEnd, cents } from './amounts.js';
import { emptyFoot, type Candidate, type Foot } from './foot-amounts.js';
import { datesIn } from './dates.js';
import { plainText } from './fold-text.js';
import type { Label } from './labels.js';
import type { Row } from './rows.js';

/** A rounding of cash to what coins can pay is under this; more, and the row prints the amount rounded. */
const ROUNDED_TOTAL = 1;
/** A rounded total is within this of the total it rounds. */
const ROUNDING_REACH = 0.1;

/** The labelled amounts below the header, sorted by what they are, for the consistency check. */
export function readFoot(labelled: { row: Row; label: Label | undefined }[], items: ReceiptLineItem[]): Foot {
  const foot = emptyFoot();
  if (items.length) foot.itemsSum = items.reduce((sum, item) => sum + cents(item.totalPrice ?? 0), 0) / 100;
  foot.itemPrices = items.map((item) => item.totalPrice ?? 0);
  for (const { row, label } of labelled) {
    const amount = amountAtEnd(row.text);
    // "Total Items 1.00", "Total Qty 3.0": a count, no amount of money.
    if (!amount || datesIn(row.text, true).length || label?.kind === 'itemCount') continue;
    const candidate: Candidate = { value: amount.value, confidence: row.confidence };
    foot.printed.push(amount.value);
    switch (label?.kind) {
      case 'total':
        if (amount.value !== 0) foot.totals.push(candidate);
        break;
      case 'subtotal':
        foot.subtotals.push(candidate);
        break;
      case 'tax':
        foot.taxes.push(amount.value);
        if (taxIncluded(row.text)) foot.taxIncluded = true;
        break;
      case 'discount':
        foot.discounts.push(Math.abs(amount.value));
        break;
      case 'savings':
        foot.savings.push(Math.abs(amount.value));
        break;
      case 'rounding':
        if (Math.abs(amount.value) < ROUNDED_TOTAL) {
          foot.roundings.push(amount.value);
          foot.charges.push(amount.value);
        } else if (foot.totals.some((total) => Math.abs(total.value - amount.value) <= ROUNDING_REACH)) {
          // "Rounding RM 45.35" under "Total Sales RM 45.34": the rounded total on the rounding's row.
          foot.totals.push(candidate);
        }
        break;
      case 'tip':
      case 'deposit':
        foot.charges.push(amount.value);
        break;
      case 'cash':
        foot.cashTendered = true;
        foot.tenders.push(amount.value);
        break;
      case 'tender':
        foot.tenders.push(amount.value);
        break;
      case 'change':
        foot.changes.push(Math.abs(amount.value));
        break;
      case undefined:
        if (amount.value < 0) foot.discounts.push(-amount.value);
        break;
    }
  }
  return withSaleSigns(foot);
}

/**
 * A tax row saying the tax is in the prices: "(Inclusive)GST 6% 33.57", "*6% GST Included 1.87",
 * "(Inciusive)" as the engine reads it; not "SALES TAX (NOT INCLUDED)" or "TAX EXCL.".
 */
function taxIncluded(text: string): boolean {
  const plain = plainText(text);
  return /\bINC[LI1]/.test(plain) && !/\b(?:NOT|EXCL|EXC)/.test(plain);
}

/**
 * A sale's amounts as positive: a payment printed as taken off the amount due ("Cash -50.00",
 * "Visa -538.00") on a receipt whose total or subtotal is positive pays it; a total read with a
 * dash before it ("TOTAL RM-38.80") on a receipt paid with positive tenders is that amount. A
 * refund, its total and its payment both negative, keeps its signs and no total is read off it.
 */
function withSaleSigns(foot: Foot): Foot {
  const sale = [...foot.totals, ...foot.subtotals].some((candidate) => candidate.value > 0);
  const paidIn = foot.tenders.some((tender) => tender > 0);
  const tenders = sale ? foot.tenders.map(Math.abs) : foot.tenders;
  const totals = (
    paidIn ? foot.totals.map((total) => ({ ...total, value: Math.abs(total.value) })) : foot.totals
  ).filter((total) => total.value > 0);
  return { ...foot, tenders, totals };
}
