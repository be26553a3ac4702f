import type { ReceiptLineItem } from '../../receipt.entity.js';
import { amountAtEnd, cents } from './amounts.js';
import { emptyFoot, type Candidate, type Foot } from './consistency.js';
import { datesIn } from './dates.js';
import type { Label } from './labels.js';
import type { Row } from './rows.js';

/** A rounding of cash to what coins can pay is under this; more, and the row prints the amount rounded. */
const ROUNDED_TOTAL = 1;

/** The labelled amounts below the header, sorted by what they are, for the consistency check. */
export function readFoot(labelled: { row: Row; label: Label | undefined }[], items: ReceiptLineItem[]): Foot {
  const foot = emptyFoot();
  if (items.length) foot.itemsSum = items.reduce((sum, item) => sum + cents(item.totalPrice ?? 0), 0) / 100;
  for (const { row, label } of labelled) {
    const amount = amountAtEnd(row.text);
    if (!amount || datesIn(row.text, true).length) continue;
    const candidate: Candidate = { value: amount.value, confidence: row.confidence };
    foot.printed.push(amount.value);
    switch (label?.kind) {
      case 'total':
        // "TOTAL RM-38.80": a dash the OCR read between the currency and the amount; a refund's
        // total is no sale's either way, and the arithmetic must still confirm the amount.
        if (amount.value !== 0) foot.totals.push({ ...candidate, value: Math.abs(amount.value) });
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
      case 'rounding':
        // "Rounding RM 45.35": a rounding is a few cents; a row so labelled with more is the rounded total.
        if (Math.abs(amount.value) >= ROUNDED_TOTAL) foot.totals.push({ ...candidate, value: Math.abs(amount.value) });
        else {
          foot.roundings.push(amount.value);
          foot.charges.push(amount.value);
        }
        break;
      case 'tip':
      case 'deposit':
        foot.charges.push(amount.value);
        break;
      // Payments printed as taken off the amount due ("Cash -50.00", "Visa -538.00") pay it all the same.
      case 'cash':
        foot.cashTendered = true;
        foot.tenders.push(Math.abs(amount.value));
        break;
      case 'tender':
        foot.tenders.push(Math.abs(amount.value));
        break;
      case 'change':
        foot.changes.push(Math.abs(amount.value));
        break;
      case undefined:
        if (amount.value < 0) foot.discounts.push(-amount.value);
        break;
    }
  }
  return foot;
}
