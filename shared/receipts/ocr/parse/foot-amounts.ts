import { cents } from './amounts.js';

/*
 * The receipt's foot as amounts (read by foot.ts), and the arithmetic that tells whether one of
 * them is the total: what the subtotal reaches, what the payment pays (consistency.ts weighs them).
 */

/** A total or subtotal as printed on one row, with how sure the OCR was of that row. */
export interface Candidate {
  value: number;
  confidence: number;
}

/** The receipt's foot, read into amounts by their labels. */
export interface Foot {
  totals: Candidate[];
  subtotals: Candidate[];
  taxes: number[];
  /** Discounts as positive amounts taken off. */
  discounts: number[];
  /** "TOTAL SAVINGS", "You saved": the discounts again, summed up, or the only mention of them. */
  savings: number[];
  /** Tips, service charges, deposits, rounding: added on. */
  charges: number[];
  /**
   * The rounding of the amount due to what cash can pay, among the charges: printed after the total
   * in Malaysia and Singapore ("TOTAL 60.31", "ROUNDING ADJ -0.01"), where what is paid, and what the
   * receipt's total is taken to be, is the rounded amount.
   */
  roundings: number[];
  /**
   * Every amount printed at a row's end below the header, the items' rows too, labelled or not: a
   * rounded total is printed on its own row.
   */
  printed: number[];
  tenders: number[];
  /** Whether one of the tenders is cash, which may be handed over in excess of the total. */
  cashTendered: boolean;
  changes: number[];
  /** The items' prices added up, when there are items. */
  itemsSum?: number;
  /** Each item's price, as read. */
  itemPrices: number[];
  /** Whether a tax row says the tax is included in the prices ("(Inclusive) GST 6% 33.57"), not added to them. */
  taxIncluded: boolean;
}

/** A foot with nothing read yet. */
export function emptyFoot(): Foot {
  return {
    totals: [],
    subtotals: [],
    taxes: [],
    discounts: [],
    savings: [],
    charges: [],
    roundings: [],
    printed: [],
    tenders: [],
    cashTendered: false,
    changes: [],
    itemPrices: [],
    taxIncluded: false,
  };
}

/** A payment at least this share of a total, and below it, contradicts it (contradictsPayment). */
const NEAR_PAYMENT = 0.8;

/**
 * Whether the receipt prints what a total can be checked against: a subtotal, a tender, or priced
 * items. When it does and the check fails, something on it was misread (a tilted photo pairs a
 * label with the next row's amount; an 8 read as a 3 in "TOTAL 18.50"), and an unconfirmed total
 * is more likely wrong than right.
 */
export function checkable(foot: Foot): boolean {
  return foot.subtotals.length > 0 || foot.tenders.length > 0 || foot.itemsSum !== undefined;
}

export function confirmsTotal(foot: Foot, value: number): boolean {
  return (
    foot.subtotals.some((subtotal) => reaches(foot, subtotal.value, value)) ||
    (foot.itemsSum !== undefined && reaches(foot, foot.itemsSum, value)) ||
    paysTotal(foot, value)
  );
}

/**
 * Whether what was paid rules this total out: a card pays the total exactly, and only cash is
 * handed over in excess (given back as change); nobody leaves having paid a little less. A total
 * the subtotal reaches that the payment contradicts is the total before a tip, or a row misread
 * or paired with the wrong amount. A payment far below the total says nothing: more likely a tax
 * amount a tilted photo paired with a tender's label, or one of several payments, than a total
 * misread by that much.
 */
export function contradictsPayment(foot: Foot, value: number): boolean {
  if (!foot.tenders.length || paysTotal(foot, value)) return false;
  const paid = cents(sum(foot.tenders) - sum(foot.changes));
  const total = cents(value);
  if (paid < total) return paid >= NEAR_PAYMENT * total;
  return paid > total && !foot.cashTendered && !foot.changes.length;
}

/**
 * The tender less the change, or one tender (a card) alone, pays exactly this, or this with the
 * rounding printed after it (`withRounding`).
 */
export function paysTotal(foot: Foot, value: number, withRounding = true): boolean {
  const paid = cents(sum(foot.tenders) - sum(foot.changes));
  const due = [cents(value), ...(withRounding && foot.roundings.length ? [cents(value + sum(foot.roundings))] : [])];
  return (foot.tenders.length > 0 && due.includes(paid)) || foot.tenders.some((tender) => due.includes(cents(tender)));
}

/**
 * Whether a base (subtotal or items' sum) reaches the total, with tax added or included, discounts
 * taken or already taken. The tax is all the tax rows or one of them: a total printed with the
 * tax's name ("Total Sales (Inclusive of GST) : 599.45") whose label the OCR cut short reads as one more tax.
 */
export function reaches(foot: Foot, base: number, total: number): boolean {
  const taxes = [0, sum(foot.taxes), ...(foot.taxes.length > 1 ? foot.taxes : [])];
  // Savings are the discounts again, summed up, or discounts of their own beside others ("Instant
  // savings -777.00" on one item, "Member price -2.30" on another).
  const discounts = [0, sum(foot.discounts), sum(foot.savings), sum(foot.discounts) + sum(foot.savings)];
  const charges = [0, sum(foot.charges)];
  return taxes.some((tax) =>
    discounts.some((discount) => charges.some((charge) => cents(base - discount + tax + charge) === cents(total))),
  );
}

export function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
