import { describe, expect, it } from 'vitest';
import { CALIBRATED_TOTAL_CONFIDENCE } from '../../../shared/receipts/ocr/parse/total-confidence.js';
import { parseReceipt } from '../../../shared/receipts/ocr/parse/parse-receipt.js';
import { pageOf } from './ocr-layout.js';

const values = (text: string, hints = {}) =>
  Object.fromEntries(
    Object.entries(parseReceipt(pageOf(text), hints).fields).map(([name, field]) => [name, field.value]),
  );
const items = (text: string) =>
  parseReceipt(pageOf(text)).lineItems.map(({ description, quantity, unitPrice, totalPrice }) => ({
    description,
    quantity,
    unitPrice,
    totalPrice,
  }));

// docs/receipts.md#ocr: the OCR worker "parses merchant, date, time, totals, line items and their confidence".
describe("parsing a receipt's page", () => {
  it('reads merchant, address, date, time, totals, barcode, transaction id, store and items', () => {
    const parsed = parseReceipt(
      pageOf(
        `
: CORNER SHOP :
12 High Street, Leeds LS1 4AB
Date: 2026-11-20 14:32
Oat Milk 1L                 2.50
Sourdough Loaf              4.00
SUBTOTAL                    6.50
VAT 20%                     1.08
TOTAL                       6.50
CARD                        6.50
Transaction #: TX-88231
Store #: S-104
5012345678900
`,
        { confidence: 0.87 },
      ),
    );
    expect(Object.fromEntries(Object.entries(parsed.fields).map(([name, field]) => [name, field.value]))).toEqual({
      merchantName: 'CORNER SHOP',
      locationAddress: '12 High Street, Leeds LS1 4AB',
      serviceDate: '2026-11-20',
      serviceTime: '14:32:00',
      total: '6.50',
      subtotal: '6.50',
      currency: 'GBP',
      language: 'en',
      transactionId: 'TX-88231',
      locationIdentifier: 'S-104',
      barcode: '5012345678900',
    });
    expect(parsed.ocrConfidence).toBe(0.87);
    // Tax, payment and totals are no items.
    expect(parsed.lineItems).toEqual([
      { description: 'Oat Milk 1L', quantity: 1, unitPrice: 2.5, totalPrice: 2.5, confidence: 0.87 },
      { description: 'Sourdough Loaf', quantity: 1, unitPrice: 4, totalPrice: 4, confidence: 0.87 },
    ]);
  });

  // Issue 22: "Honest confidence. Each field keeps a confidence": an identifier's is its row's.
  it('gives identifiers and the language the confidence of what they were read from', () => {
    const parsed = parseReceipt(
      pageOf(
        'CORNER SHOP\nZwischensumme 4,00\nSumme 4,00\nTrans #: 88231{0.41}\nFiliale 0815{0.52}\n5012345678900{0.63}',
      ),
    );
    expect(parsed.fields.transactionId).toEqual({ value: '88231', confidence: 0.41 });
    expect(parsed.fields.locationIdentifier).toEqual({ value: '0815', confidence: 0.52 });
    expect(parsed.fields.barcode).toEqual({ value: '5012345678900', confidence: 0.63 });
    expect(parsed.fields.language?.value).toBe('de');
  });

  it('gives no field a confidence outside 0 to 1 when the engine scores NaN or below zero', () => {
    for (const confidence of [Number.NaN, -0.3]) {
      const parsed = parseReceipt(pageOf('CORNER SHOP\nTea     2.50\nTOTAL     2.50\nTrans #: 88231', { confidence }));
      const all = [parsed.ocrConfidence, ...Object.values(parsed.fields).map((field) => field.confidence)];
      expect(all.every((value) => value >= 0 && value <= 1)).toBe(true);
    }
  });

  it.each([
    ['Total €19,90', '19.90'],
    ['Grand Total 1,234.50', '1234.50'],
    ['Total Due 1.234,50 EUR', '1234.50'],
    ['Amount due $32.19', '32.19'],
    ['TOTAL ........ 9.95', '9.95'],
  ])('reads the total of "%s" as %s', (line, total) => {
    expect(values(`SHOP\n${line}`).total).toBe(total);
  });

  it('reads quantities, and cuts dot leaders misread as letters', () => {
    expect(
      items(`
CAFE
2 x Tea @ 1.80 ........     3.60
Muffin 3 @ 2.00             6.00
Croque Monsieur ....cc.ccccvoeivaveennne €9,50
TOTAL                      19.10
`),
    ).toEqual([
      { description: 'Tea', quantity: 2, unitPrice: 1.8, totalPrice: 3.6 },
      { description: 'Muffin', quantity: 3, unitPrice: 2, totalPrice: 6 },
      { description: 'Croque Monsieur', quantity: 1, unitPrice: 9.5, totalPrice: 9.5 },
    ]);
  });

  it('leaves out what it cannot read rather than guessing', () => {
    const parsed = parseReceipt(pageOf('~~ .. ~~\nthank you'));
    expect(parsed.fields).toEqual({});
    expect(parsed.lineItems).toEqual([]);
  });

  // Issue 22: "the first line that matches TOTAL wins ("TOTAL SAVINGS" taken as the total)".
  it('does not take TOTAL SAVINGS for the total', () => {
    const read = values(`
MARKET
Cheese                      5.00
Wine                       10.00
SUBTOTAL                   15.00
TOTAL SAVINGS               2.00
TOTAL                      13.00
`);
    expect(read.total).toBe('13.00');
  });

  // Issue 22: "a field the parser is unsure of is left empty rather than guessed".
  it('leaves out a total that two rows contradict and no arithmetic settles', () => {
    const read = values(`
SHOP
Something                   4.00
TOTAL                      12.00
AMOUNT DUE                 21.00
`);
    expect(read.total).toBeUndefined();
  });

  it('leaves out a total read with low confidence that no arithmetic confirms', () => {
    const read = values(`
SHOP
Bread                       2.00
TOTAL                       8.50{0.55}
`);
    expect(read.total).toBeUndefined();
  });

  it('keeps a total the tender and change confirm even when its digits were read poorly', () => {
    const parsed = parseReceipt(
      pageOf(`
SHOP
Bread                       2.00
TOTAL                       8.50{0.55}
CASH                       10.00
CHANGE                      1.50
`),
    );
    expect(parsed.fields.total).toEqual({ value: '8.50', confidence: CALIBRATED_TOTAL_CONFIDENCE.paid });
  });

  it('reads a photo tilted so far that each price sits level with the next row, by the arithmetic', () => {
    const parsed = parseReceipt(
      pageOf(
        `
SHOP
Bread                                   2.00
Milk                                    1.50
Cheese                                  4.25
Apples                                  3.10
SUBTOTAL                               10.85
TOTAL                                  10.85`,
        { slope: 0.06 },
      ),
    );
    expect(parsed.lineItems.map((item) => [item.description, item.totalPrice])).toEqual([
      ['Bread', 2],
      ['Milk', 1.5],
      ['Cheese', 4.25],
      ['Apples', 3.1],
    ]);
    expect(parsed.fields.total).toEqual({ value: '10.85', confidence: CALIBRATED_TOTAL_CONFIDENCE.reached });
  });

  // Issue 22: "Merchant from the header, cross-checked against the tenant's known merchants and venues".
  it("gives a known merchant's name as configured", () => {
    expect(values('MULLER DROGERIE\nTOTAL 1,00', { knownMerchants: ['Müller Drogerie', 'Lidl'] }).merchantName).toBe(
      'Müller Drogerie',
    );
  });

  // Issue 22: "Merchant from the header, cross-checked against the tenant's known merchants": an
  // item's words are no merchant, or a receipt from one the tenant does not accept would pass.
  it("does not take a known merchant's name from an item", () => {
    const receipt = (item: string) => `GREEN GROCER\n1 Mill Lane\n${item}        3.50\nTOTAL        3.50`;
    expect(values(receipt('Costa Rica Blend'), { knownMerchants: ['Costa'] }).merchantName).toBe('GREEN GROCER');
    expect(values(receipt('Sparkling Water'), { knownMerchants: ['Spar'] }).merchantName).toBe('GREEN GROCER');
  });

  // Issue 22: "Dates and times: ... 12-hour times"; a time row is not an item priced at its hour.
  it('reads no item from a row that prints a time alone', () => {
    expect(items('THE GRILL\nCheck opened 13:47\nSteak        18.00\nTOTAL        18.00')).toEqual([
      { description: 'Steak', quantity: 1, unitPrice: 18, totalPrice: 18 },
    ]);
  });

  // Issue 22: "US month-first against day-first elsewhere": a stock code that looks like a British
  // postcode on a dollar receipt does not decide that 05/04/2025 is the 5th of April.
  it('leaves out a date that reads both ways when the country and the currency disagree', () => {
    const read = values('HARDWARE DEPOT\n05/04/2025\nSKU W1 2AB\nHammer        $18.50\nTOTAL        $18.50');
    expect(read.serviceDate).toBeUndefined();
    expect(read.currency).toBe('USD');
  });

  it('reads a German receipt: language, currency and comma decimals', () => {
    const read = values(`
BACKEREI SCHMIDT
Hauptstr. 5, 10115 Berlin
24.10.24 13:47
Brezel                      1,20
Kaffee                      2,80
SUMME EUR                   4,00
Bar                        10,00
Rückgeld                    6,00
Bon-Nr. 4711
`);
    expect(read).toMatchObject({
      merchantName: 'BACKEREI SCHMIDT',
      serviceDate: '2024-10-24',
      serviceTime: '13:47:00',
      total: '4.00',
      currency: 'EUR',
      language: 'de',
      transactionId: '4711',
    });
  });
});
