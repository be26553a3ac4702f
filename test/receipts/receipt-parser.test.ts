import { describe, expect, it } from 'vitest';
import { parseReceiptText } from '../../shared/receipts/ocr/receipt-parser.js';

const read = (text: string, confidence = 0.9) => ({
  confidence,
  lines: text
    .trim()
    .split('\n')
    .map((line) => ({ text: line.trim(), confidence })),
});
const values = (text: string) =>
  Object.fromEntries(Object.entries(parseReceiptText(read(text)).fields).map(([name, field]) => [name, field.value]));

// docs/receipts.md#ocr: the OCR worker "parses merchant, date, time, totals, line items and their confidence".
describe("parsing a receipt's recognised text", () => {
  it('reads merchant, date, time, totals, barcode, transaction id and store', () => {
    const parsed = parseReceiptText(
      read(
        `
      : CORNER SHOP :
      12 High Street, Leeds
      Date: 2026-11-20 14:32
      Oat Milk 1L        2.50
      Sourdough Loaf     4.00
      SUBTOTAL           6.50
      VAT 20%            1.08
      TOTAL              6.50
      CARD               6.50
      Transaction #: TX-88231
      Store #: S-104
      5012345678900
    `,
        0.87,
      ),
    );
    expect(Object.fromEntries(Object.entries(parsed.fields).map(([name, field]) => [name, field.value]))).toEqual({
      merchantName: 'CORNER SHOP',
      serviceDate: '2026-11-20',
      serviceTime: '14:32:00',
      total: '6.50',
      subtotal: '6.50',
      transactionId: 'TX-88231',
      locationIdentifier: 'S-104',
      barcode: '5012345678900',
    });
    expect(parsed.fields.total?.confidence).toBe(0.87);
    expect(parsed.ocrConfidence).toBe(0.87);
    // Tax, payment and totals are no items.
    expect(parsed.lineItems).toEqual([
      { description: 'Oat Milk 1L', quantity: 1, unitPrice: 2.5, totalPrice: 2.5, confidence: 0.87 },
      { description: 'Sourdough Loaf', quantity: 1, unitPrice: 4, totalPrice: 4, confidence: 0.87 },
    ]);
  });

  it.each([
    ['20/11/2026', '2026-11-20'],
    ['20.11.2026', '2026-11-20'],
    ['21-11-26', '2026-11-21'],
    ['2026.11.22', '2026-11-22'],
    ['18 Nov 2026', '2026-11-18'],
    ['Nov 17, 2026', '2026-11-17'],
    ['05/11/2026', '2026-11-05'],
  ])('reads the date %s as %s (the day first where it is ambiguous)', (text, date) => {
    expect(values(`SHOP\n${text}\nTOTAL 1.00`).serviceDate).toBe(date);
  });

  it('reads an ambiguous date month first on a receipt in dollars', () => {
    expect(values('HARDWARE\n05/11/2026\nTotal $3.00').serviceDate).toBe('2026-05-11');
  });

  it.each([
    ['4:05 PM', '16:05:00'],
    ['09:41 AM', '09:41:00'],
    ['12:15 AM', '00:15:00'],
    ['19:05:33', '19:05:33'],
  ])('reads the time %s as %s', (text, time) => {
    expect(values(`SHOP\n2026-11-20 ${text}\nTOTAL 1.00`).serviceTime).toBe(time);
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
    const { lineItems } = parseReceiptText(
      read(`
      CAFE
      2 x Tea @ 1.80 ........ 3.60
      Muffin 3 @ 2.00         6.00
      Croque Monsieur .........cc.ccccvoeivaveennne €9,50
      TOTAL 19.10
    `),
    );
    expect(
      lineItems.map(({ description, quantity, unitPrice, totalPrice }) => ({
        description,
        quantity,
        unitPrice,
        totalPrice,
      })),
    ).toEqual([
      { description: 'Tea', quantity: 2, unitPrice: 1.8, totalPrice: 3.6 },
      { description: 'Muffin', quantity: 3, unitPrice: 2, totalPrice: 6 },
      { description: 'Croque Monsieur', quantity: 1, unitPrice: 9.5, totalPrice: 9.5 },
    ]);
  });

  it('leaves out what it cannot read rather than guessing', () => {
    const parsed = parseReceiptText(read('~~ .. ~~\nthank you'));
    expect(parsed.fields).toEqual({});
    expect(parsed.lineItems).toEqual([]);
  });
});

// Issue 22: "Merchant from the header, cross-checked against the tenant's known merchants and venues
// when configured."
describe("a tenant's known merchants", () => {
  const merchantOf = (text: string, knownMerchants: string[]) =>
    parseReceiptText(read(text), { knownMerchants }).fields.merchantName;

  it('gives a known merchant named in the header as the tenant spells it, without regard to case, accents or punctuation', () => {
    expect(merchantOf('* MULLER-DROGERIE *\nHauptstr. 5\nSUMME 4.20', ['Müller Drogerie'])).toEqual({
      value: 'Müller Drogerie',
      confidence: 0.9,
    });
    expect(merchantOf(': Bistro Lumiere: Paris\n20/11/2026\nTotal 9.50', ['Acme', 'bistro lumière'])?.value).toBe(
      'bistro lumière',
    );
  });

  it('prefers the first of the known names the header holds, in the order given', () => {
    expect(merchantOf('ACME COFFEE SOHO\nTOTAL 3.00', ['Acme Coffee', 'Acme Coffee Soho'])?.value).toBe('Acme Coffee');
  });

  it('matches whole words only, and only in the header; otherwise the header is read as before', () => {
    expect(merchantOf('ACMEWAY STORES\nTOTAL 3.00', ['Acme'])?.value).toBe('ACMEWAY STORES');
    expect(merchantOf('CORNER SHOP\nline 2\nline 3\nline 4\nAcme voucher 1.00\nTOTAL 3.00', ['Acme'])?.value).toBe(
      'CORNER SHOP',
    );
    expect(merchantOf('CORNER SHOP\nTOTAL 3.00', [])?.value).toBe('CORNER SHOP');
  });
});

// Issue 22: "a `currency` field on the stored receipt", chosen "from the receipt's own evidence".
describe('the currency', () => {
  it.each([
    ['€ prices', 'Croque €9,50\nSalade €6,00\nTotal €15,50', 'EUR', 0.9],
    ['£ prices', 'Tea £1.80\nTOTAL £1.80', 'GBP', 0.9],
    ['a printed code', 'Total 1.234,50 EUR', 'EUR', 0.9],
    ['a misread mark among many', 'A €1,00\nB €2,00\nC €3,00\nTotal £6,00', 'EUR', 0.675],
  ])('is read from %s', (_case, text, currency, confidence) => {
    expect(parseReceiptText(read(`SHOP\n${text}`)).fields.currency).toEqual({ value: currency, confidence });
  });

  it.each([
    ['dollars, which many countries print as "$"', 'Total $3.00'],
    ['no mark at all', 'TOTAL 3.00'],
    ['as many marks for two currencies', 'A €1,00\nTotal £1,00'],
  ])('is left out with %s', (_case, text) => {
    expect(parseReceiptText(read(`SHOP\n${text}`)).fields.currency).toBeUndefined();
  });
});
