import { describe, expect, it } from 'vitest';
import { emptyFoot, settleTotals, type Foot } from '../../../shared/receipts/ocr/parse/consistency.js';

const foot = (parts: Partial<Foot>): Foot => ({ ...emptyFoot(), ...parts });

// Issue 22: "a consistency check that prefers the reading where items sum to the subtotal and
// subtotal, discounts, tax and charges reach the total"; "Honest confidence".
describe('settling the totals', () => {
  it('confirms a total the subtotal, discount and added tax reach', () => {
    const settled = settleTotals(
      foot({
        totals: [{ value: 30.4, confidence: 0.9 }],
        subtotals: [{ value: 30, confidence: 0.9 }],
        discounts: [2],
        taxes: [2.4],
        itemsSum: 30,
      }),
    );
    expect(settled).toEqual({
      total: { value: 30.4, confidence: 0.97 },
      subtotal: { value: 30, confidence: 0.97 },
      confirmed: true,
    });
  });

  it('confirms a total by the tender less the change', () => {
    expect(
      settleTotals(foot({ totals: [{ value: 6.85, confidence: 0.6 }], tenders: [10], changes: [3.15] })).total,
    ).toEqual({ value: 6.85, confidence: 0.97 });
  });

  it('of two competing totals, takes the one the arithmetic confirms', () => {
    const settled = settleTotals(
      foot({
        totals: [
          { value: 12.5, confidence: 0.95 },
          { value: 21.5, confidence: 0.95 },
        ],
        itemsSum: 12.5,
      }),
    );
    expect(settled.total?.value).toBe(12.5);
  });

  it('of a total before the tip and one after, both confirmed, takes the one paid', () => {
    const settled = settleTotals(
      foot({
        totals: [
          { value: 129.49, confidence: 0.99 },
          { value: 153.47, confidence: 0.98 },
        ],
        subtotals: [{ value: 119.9, confidence: 0.99 }],
        taxes: [9.59],
        charges: [23.98],
        tenders: [153.47],
      }),
    );
    expect(settled.total?.value).toBe(153.47);
  });

  it('leaves out two competing totals that no check separates', () => {
    const settled = settleTotals(
      foot({
        totals: [
          { value: 12.5, confidence: 0.95 },
          { value: 21.5, confidence: 0.95 },
        ],
      }),
    );
    expect(settled.total).toBeUndefined();
  });

  // Issue 22: "a field the parser is unsure of is left empty rather than guessed": a total kept
  // unconfirmed is under the default review.minConfidence (0.5), so a person sees it.
  it('keeps a single clearly read total nothing confirms, with a confidence under the review threshold', () => {
    const total = settleTotals(foot({ totals: [{ value: 8.5, confidence: 0.95 }] })).total;
    expect(total?.value).toBe(8.5);
    expect(total?.confidence).toBeLessThan(0.5);
  });

  // Issue 22: "so the reviewer answers INSUFFICIENT_DATA instead of authorizing a wrong total".
  it("leaves out an unconfirmed total the printed items' sum disagrees with", () => {
    // Items 8.50 and 10.00, and TOTAL 18.50 read as 13.50: no subtotal or tender, but the items check it.
    expect(settleTotals(foot({ totals: [{ value: 13.5, confidence: 0.99 }], itemsSum: 18.5 })).total).toBeUndefined();
  });

  it('leaves out an unconfirmed total when the subtotal or tender printed beside it disagree', () => {
    expect(
      settleTotals(
        foot({ totals: [{ value: 2.45, confidence: 0.99 }], subtotals: [{ value: 4.25, confidence: 0.99 }] }),
      ).total,
    ).toBeUndefined();
    expect(settleTotals(foot({ totals: [{ value: 2.45, confidence: 0.99 }], tenders: [32.19] })).total).toBeUndefined();
  });

  it('leaves out a total read with low confidence that no arithmetic confirms', () => {
    expect(settleTotals(foot({ totals: [{ value: 8.5, confidence: 0.6 }] })).total).toBeUndefined();
  });
});
