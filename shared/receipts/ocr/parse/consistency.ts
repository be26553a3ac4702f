import { cents } from './amounts.js';
import {
  checkable,
  confirmsTotal,
  contradictsPayment,
  paysTotal,
  reaches,
  sum,
  type Candidate,
  type Foot,
} from './foot-amounts.js';
import { roundConfidence } from './confidence.js';
import { CALIBRATED_TOTAL_CONFIDENCE } from './total-confidence.js';

/**
 * What makes a total the receipt's, from the strongest: the payment and the subtotal or items both
 * reach it; the payment alone (tender less change, or a card paying it exactly); the payment with
 * the rounding printed after the total; the subtotal or items alone; and, when no printed total is
 * confirmed (its row misread, "Total (RM) 112.46" for 112.45, or no total row printed under the
 * subtotal), the amount the payment and the subtotal's arithmetic agree on. A confirmed total's confidence
 * is the share of totals so confirmed that were right on the tune sets (total-confidence.ts,
 * calibrated by `npm run ocr:calibrate`). A total chosen among different printed totals with no
 * payment to settle it (`contested`), or one nothing checks (`unconfirmed`), is kept under the
 * review's default threshold whatever its share: a person decides. Last, when none of these gives a
 * total, the amounts the foot prints may agree on one without their labels (`agreed without
 * labels`, agreedWithoutLabels).
 */
export const CALIBRATED_EVIDENCE = [
  'paid and reached',
  'paid',
  'paid with its rounding',
  'reached',
  'paid and reached, not printed',
  'agreed without labels',
] as const;
export type CalibratedEvidence = (typeof CALIBRATED_EVIDENCE)[number];
export type TotalEvidence = CalibratedEvidence | 'contested' | 'unconfirmed';

export interface Settled {
  total?: Candidate & { evidence: TotalEvidence };
  subtotal?: Candidate;
  /** The total is one the receipt's arithmetic reaches. */
  confirmed: boolean;
}

/** A subtotal that arithmetic confirms: another printed number agrees with it. */
const CONFIRMED = 0.97;
/**
 * One that nothing confirms, read clearly, is kept with a confidence under the reviewer's default
 * `review.minConfidence` (0.5), so by default a person looks at it before it is paid out.
 */
const UNCONFIRMED = 0.45;
/** An unconfirmed amount read less surely than this is left out, not guessed. */
const CLEAR_READING = 0.9;

/**
 * Chooses the total and subtotal among the rows labelled so. A total is confirmed when the
 * receipt's own arithmetic reaches it: the subtotal (or the items' sum) less discounts, plus
 * charges and plus the tax when the tax was added, not included; or the tender less the change,
 * or a card paying it exactly; and what was paid does not contradict it
 * (contradictsPayment). Of competing totals the one confirmed wins; when none is, a single
 * clearly read total on a receipt that prints nothing to check it against (no subtotal, tender or
 * item) is kept with a confidence under the review's threshold; else the foot's amounts may agree
 * on one without labels (agreedWithoutLabels), and any other is left out: a wrong total is a wrong
 * payout, a missing one is a review by a person. The subtotal follows the same rules, checked
 * against the items' sum and the total.
 */
export function settleTotals(foot: Foot): Settled {
  const totals = distinct([...foot.totals, ...roundedTotals(foot)]);
  const confirmed = totals.filter(
    (total) => confirmsTotal(foot, total.value) && !contradictsPayment(foot, total.value),
  );
  // A total before a tip is confirmed by the subtotal as well as the total after it, and a total
  // before its rounding by the payment as well as the rounded total: what was paid exactly decides.
  const paid = confirmed.filter((total) => paysTotal(foot, total.value, false));
  const confirmedTotals = confirmed.length > 1 && paid.length === 1 ? paid : confirmed;
  const agreed = confirmedTotals.length === 0 ? agreedByPaymentAndSubtotal(foot) : undefined;
  const total =
    confirmedTotals.length === 1
      ? withEvidence(confirmedTotals[0]!, evidenceOf(foot, totals, confirmedTotals[0]!.value))
      : agreed !== undefined
        ? withEvidence({ value: agreed, confidence: 1 }, 'paid and reached, not printed')
        : confirmedTotals.length === 0 &&
            totals.length === 1 &&
            totals[0]!.confidence >= CLEAR_READING &&
            !checkable(foot)
          ? withEvidence(totals[0]!, 'unconfirmed')
          : unlabelledTotal(foot);
  const subtotals = distinct(foot.subtotals);
  const confirmsSubtotal = (value: number) =>
    (foot.itemsSum !== undefined && cents(foot.itemsSum) === cents(value)) ||
    (total !== undefined && reaches(foot, value, total.value));
  const confirmedSubtotals = subtotals.filter((subtotal) => confirmsSubtotal(subtotal.value));
  const subtotal =
    confirmedSubtotals.length === 1
      ? { value: confirmedSubtotals[0]!.value, confidence: CONFIRMED }
      : confirmedSubtotals.length === 0 &&
          subtotals.length === 1 &&
          subtotals[0]!.value > 0 &&
          subtotals[0]!.confidence >= CLEAR_READING &&
          foot.itemsSum === undefined &&
          !total
        ? { value: subtotals[0]!.value, confidence: roundConfidence(UNCONFIRMED * subtotals[0]!.confidence) }
        : undefined;
  return {
    ...(total ? { total } : {}),
    ...(subtotal ? { subtotal } : {}),
    confirmed: confirmedTotals.length === 1 || agreed !== undefined,
  };
}

/**
 * The amount paid (the tenders less the change) when the foot's arithmetic reaches it from a
 * subtotal or the items' sum: two readings of the receipt that agree without its total row. A
 * total row printed with more must be that one misread (a digit, "112.46" for 112.45) or before
 * its rounding: a larger total that says something else (a part payment beside the whole) leaves
 * the total to a person. A smaller one says nothing (the GST summary's "Total: 106.10 6.37").
 */
function agreedByPaymentAndSubtotal(foot: Foot): number | undefined {
  if (!foot.tenders.length) return undefined;
  const paid = cents(sum(foot.tenders) - sum(foot.changes));
  const bases = [
    ...foot.subtotals.map((subtotal) => subtotal.value),
    ...(foot.itemsSum === undefined ? [] : [foot.itemsSum]),
  ];
  if (paid <= 0 || !bases.some((base) => reaches(foot, base, paid / 100))) return undefined;
  return foot.totals.every((total) => saysNoOther(cents(total.value), paid)) ? paid / 100 : undefined;
}

/**
 * Whether an amount printed (a total, in cents) leaves `amount` the receipt's total: it is that
 * amount misread by a digit ("112.46" for 112.45) or before its rounding, or smaller, which says
 * nothing (the GST summary's "Total: 106.10 6.37"). A larger one saying something else (a part
 * payment beside the whole) leaves the total to a person.
 */
function saysNoOther(printed: number, amount: number): boolean {
  return printed <= amount + ROUNDING_CENTS || oneDigitApart(printed, amount);
}

/** A total no labelled row gives, when the foot's amounts agree on one (agreedWithoutLabels). */
function unlabelledTotal(foot: Foot): (Candidate & { evidence: TotalEvidence }) | undefined {
  const agreed = agreedWithoutLabels(foot);
  return agreed === undefined ? undefined : withEvidence({ value: agreed, confidence: 1 }, 'agreed without labels');
}

/**
 * The total as the foot's amounts give it when the OCR misread its label ("TOT"1 RM 73.00", "GASH
 * 112.45") or printed it on a row of its own, on a receipt whose foot is read in part (a
 * subtotal, tax, discount, tender, change, rounding or total labelled): the largest amount
 * printed, tenders and the items' own prices aside, that the receipt backs by printing it twice
 * (the total, then the cash), by reaching it from a smaller printed amount with the taxes and
 * charges labelled, by the items' sum, or by the payment. A subtotal (or the items' sum, where a discount or a tax is labelled) is
 * no total when it is printed only as one (discounts make it larger than the total) or when a tax
 * is added to it (a tax summary prints it again), and a larger subtotal must reach the amount.
 * Every larger amount printed, a labelled total's and an item's too, must be that one misread by a
 * digit or before its rounding ("Total (RM) 112.46" above "112.45"); a larger one that says
 * something else means the total is some other amount, and a person decides.
 */
function agreedWithoutLabels(foot: Foot): number | undefined {
  const labelled = [
    foot.totals,
    foot.subtotals,
    foot.taxes,
    foot.discounts,
    foot.savings,
    foot.tenders,
    foot.changes,
    foot.roundings,
  ];
  if (!labelled.some((rows) => rows.length)) return undefined;
  const tenders = new Set(foot.tenders.map(cents));
  const itemPrices = foot.itemPrices.map(cents);
  const printed = withoutItemPrices(
    foot.printed.map(cents).filter((amount) => amount > 0 && !tenders.has(amount)),
    itemPrices,
  );
  const candidates = [...new Set(printed)].sort((a, b) => b - a);
  const paid = foot.tenders.length ? cents(sum(foot.tenders) - sum(foot.changes)) : undefined;
  // Beside a larger labelled total, being printed twice is no answer to it: which of the two the
  // engine misread ("Total 165.00" and "SubTotal 105.00", "MASTER 105.00") only the arithmetic says.
  const outweighed = (amount: number) => foot.totals.some((total) => cents(total.value) > amount + ROUNDING_CENTS);
  const backed = (amount: number) =>
    (!outweighed(amount) && count(printed, amount) > 1) ||
    printed.some((base) => base < amount && reaches(foot, base / 100, amount / 100)) ||
    (foot.itemsSum !== undefined && reaches(foot, foot.itemsSum, amount / 100)) ||
    paid === amount;
  const taxAdded = !foot.taxIncluded && foot.taxes.some((tax) => tax > 0);
  const adjusted = taxAdded || foot.discounts.length > 0 || foot.savings.length > 0;
  const subtotals = [
    ...foot.subtotals.map((subtotal) => cents(subtotal.value)),
    ...(adjusted && foot.itemsSum !== undefined ? [cents(foot.itemsSum)] : []),
  ];
  const notTotal = (amount: number) =>
    subtotals.includes(amount) && (taxAdded || count(printed, amount) <= count(subtotals, amount));
  const rounding = cents(sum(foot.roundings));
  for (const [at, amount] of candidates.entries()) {
    if (notTotal(amount)) continue;
    // An item priced above the amount stands against it too: a total row the item area took in.
    const larger = [...candidates.slice(0, at).filter((other) => !subtotals.includes(other)), ...itemPrices];
    if (!larger.every((other) => saysNoOther(other, amount))) return undefined;
    const fromSubtotals = subtotals.every(
      (subtotal) => subtotal <= amount || reaches(foot, subtotal / 100, amount / 100),
    );
    if (!fromSubtotals || !backed(amount) || contradictsPayment(foot, amount / 100)) continue;
    // "Sub-total 88.97", "Total Sales 88.97", "Rounding Adj -0.02", "88.95": the amount due is the rounded one.
    return (rounding !== 0 && printed.includes(amount + rounding) ? amount + rounding : amount) / 100;
  }
  return undefined;
}

/** The amounts printed less one of each item's price: what the foot prints beside the items. */
function withoutItemPrices(printed: number[], itemPrices: number[]): number[] {
  const left = [...printed];
  for (const price of itemPrices) {
    const at = left.indexOf(price);
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}

function count(amounts: number[], amount: number): number {
  return amounts.filter((other) => other === amount).length;
}

/** The most a cash rounding moves a total, in cents (to 5 sen, 5 cents or 10 öre). */
const ROUNDING_CENTS = 5;

/** Two amounts printed with as many digits that differ in one of them: one misread for the other. */
function oneDigitApart(a: number, b: number): boolean {
  const [x, y] = [String(a), String(b)];
  return x.length === y.length && [...x].filter((digit, at) => digit !== y[at]).length === 1;
}

/**
 * What confirms the chosen total (TotalEvidence). It is `contested` when the receipt prints
 * another total of a different amount and no payment settles which was paid ("Total Sales Incl
 * GST 42.48" and "Total After Adj 42.50" with only the cash handed over): the arithmetic agrees
 * with one of two printed answers, and the other may be the one meant.
 */
function evidenceOf(foot: Foot, totals: Candidate[], value: number): TotalEvidence {
  const paid = paysTotal(foot, value, false);
  if (totals.length > 1 && !paid) return 'contested';
  const reached =
    foot.subtotals.some((subtotal) => reaches(foot, subtotal.value, value)) ||
    (foot.itemsSum !== undefined && reaches(foot, foot.itemsSum, value));
  if (paid) return reached ? 'paid and reached' : 'paid';
  return paysTotal(foot, value) ? 'paid with its rounding' : 'reached';
}

function withEvidence(total: Candidate, evidence: TotalEvidence): Candidate & { evidence: TotalEvidence } {
  const confidence =
    evidence === 'contested' || evidence === 'unconfirmed'
      ? roundConfidence(UNCONFIRMED * total.confidence)
      : CALIBRATED_TOTAL_CONFIDENCE[evidence];
  return { value: total.value, confidence, evidence };
}

/**
 * Each total rounded as the rounding printed with it says, when the receipt prints that amount too
 * (an unlabelled "RM 60.30" under "ROUNDING ADJ -0.01"): the amount due, which the arithmetic must
 * still confirm. One the receipt does not print is no total of its own: the printed total is, paid
 * with its rounding.
 */
function roundedTotals(foot: Foot): Candidate[] {
  const rounding = cents(sum(foot.roundings));
  if (rounding === 0) return [];
  return foot.totals
    .map((total) => ({ value: (cents(total.value) + rounding) / 100, confidence: total.confidence }))
    .filter((total) => total.value > 0 && foot.printed.some((amount) => cents(amount) === cents(total.value)));
}

function distinct(candidates: Candidate[]): Candidate[] {
  const byValue = new Map<number, Candidate>();
  for (const candidate of candidates) {
    const known = byValue.get(cents(candidate.value));
    if (!known || candidate.confidence > known.confidence) byValue.set(cents(candidate.value), candidate);
  }
  return [...byValue.values()];
}
