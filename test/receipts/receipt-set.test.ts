import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cents } from '../../shared/receipts/ocr/parse/amounts.js';
import { ean13CheckDigit } from '../fixtures/receipts/generator/barcode.js';
import { receiptSet } from '../fixtures/receipts/receipt-set.js';

const receipts = receiptSet();
const distinct = (values: string[]) => new Set(values).size;

// Issue 22, item 4: "at least 120 generated receipts with ground truth, drawn by your own generator
// with real variety: at least 15 merchants in 5 countries and 3 languages [...] Keep a quarter of it
// as a holdout that you score only at the end, never while tuning."
describe('the generated receipt set', () => {
  it('holds at least 120 receipts, a quarter of them the holdout', () => {
    expect(receipts.length).toBeGreaterThanOrEqual(120);
    expect(receiptSet('holdout').length * 4).toBe(receipts.length);
    expect(receiptSet('tune').length + receiptSet('holdout').length).toBe(receipts.length);
  });

  it('covers at least 15 merchants, 5 countries and 3 languages', () => {
    expect(distinct(receipts.map((receipt) => receipt.truth.merchantName))).toBeGreaterThanOrEqual(15);
    expect(distinct(receipts.map((receipt) => receipt.country))).toBeGreaterThanOrEqual(5);
    expect(distinct(receipts.map((receipt) => receipt.language))).toBeGreaterThanOrEqual(3);
  });

  it('holds out every country at both difficulties', () => {
    const strata = (split?: 'holdout') =>
      new Set(receiptSet(split).map((receipt) => `${receipt.country} ${receipt.difficulty}`));
    expect(strata('holdout')).toEqual(strata());
  });

  it('shows monospace and proportional fonts, the item layouts, discounts, VAT tables, tenders and capture noise', () => {
    const features = new Set(receipts.flatMap((receipt) => receipt.features));
    const required = [
      'monospace',
      'proportional',
      'two-line-items',
      'weighed',
      'fuel',
      'quantity-above-items',
      'each-below-items',
      'leading-count-items',
      'table',
    ];
    required.push(
      'item-discount',
      'vat-table',
      'tender',
      'distractor-date',
      'rotation',
      'blur',
      'jpeg',
      'fading',
      'perspective',
      'crease',
      'low-resolution',
    );
    expect(required.filter((feature) => !features.has(feature))).toEqual([]);
  });

  it('has an image for every entry', () => {
    expect(receipts.filter((receipt) => !existsSync(receipt.path)).map((receipt) => receipt.file)).toEqual([]);
  });

  it('prints items that sum to the subtotal, and a subtotal that reaches the total', () => {
    const inconsistent = receipts.filter(({ truth, adjustments }) => {
      const items = truth.lineItems.reduce((sum, item) => sum + cents(item.totalPrice), 0);
      const reached = items - cents(adjustments.discounts) + cents(adjustments.addedTax) + cents(adjustments.charges);
      return (truth.subtotal !== null && cents(truth.subtotal) !== items) || reached !== cents(truth.total);
    });
    expect(inconsistent.map((receipt) => receipt.file)).toEqual([]);
  });

  it('writes the truth in one form: ISO dates, HH:MM:SS times, ISO currencies, valid EAN-13 or UPC-A barcodes', () => {
    const currencies: Record<string, string> = { GB: 'GBP', US: 'USD', DE: 'EUR', FR: 'EUR', AE: 'AED' };
    const malformed = receipts.filter(({ truth, country }) => {
      const date = new Date(`${truth.serviceDate}T00:00:00Z`);
      const validDate = /^\d{4}-\d\d-\d\d$/.test(truth.serviceDate) && date.toISOString().startsWith(truth.serviceDate);
      const validTime = truth.serviceTime === null || /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(truth.serviceTime);
      const code = truth.barcode?.length === 12 ? `0${truth.barcode}` : truth.barcode;
      const validBarcode = code === null || (/^\d{13}$/.test(code) && ean13CheckDigit(code.slice(0, 12)) === code[12]);
      return !validDate || !validTime || !validBarcode || truth.currency !== currencies[country];
    });
    expect(malformed.map((receipt) => receipt.file)).toEqual([]);
  });
});
