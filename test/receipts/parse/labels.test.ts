import { describe, expect, it } from 'vitest';
import { labelOf } from '../../../shared/receipts/ocr/parse/labels.js';

// Issue 22: "labels in other languages (SUMME, Zu zahlen, A PAYER, NET A PAYER, Zwischensumme,
// SOUS-TOTAL) and wordings such as AMOUNT DUE, NET AMOUNT, TO PAY, GRAND TOTAL are missed".
describe('reading labels', () => {
  it.each([
    ['GRAND TOTAL', 'total', 'en'],
    ['AMOUNT DUE', 'total', 'en'],
    ['NET AMOUNT', 'total', 'en'],
    ['TO PAY', 'total', 'en'],
    ['BALANCE DUE', 'total', 'en'],
    ['TOTAL', 'total', undefined],
    ['SUMME EUR', 'total', 'de'],
    ['Zu zahlen', 'total', 'de'],
    ['A PAYER', 'total', 'fr'],
    ['NET A PAYER', 'total', 'fr'],
    ['Zwischensumme', 'subtotal', 'de'],
    ['SOUS-TOTAL', 'subtotal', 'fr'],
    ['Subtotal', 'subtotal', 'en'],
    ['MwSt 19%', 'tax', 'de'],
    ['TVA 10%', 'tax', 'fr'],
    ['VAT 20%', 'tax', 'en'],
    ['Bar', 'cash', 'de'],
    ['CASH', 'cash', 'en'],
    ['AMOUNT TENDERED', 'cash', 'en'],
    ['Card Payment', 'tender', 'en'],
    ['Espèces', 'cash', 'fr'],
    ['CB', 'tender', 'fr'],
    ['Rückgeld', 'change', 'de'],
    ['Rendu', 'change', 'fr'],
    ['Pfand 0,25', 'deposit', 'de'],
    ['Tip', 'tip', 'en'],
    ['Serv Charge 10% 4.96', 'tip', 'en'],
    ['Rounding', 'rounding', 'en'],
  ])('reads "%s" as %s (%s)', (text, kind, language) => {
    expect(labelOf(text)).toEqual(language ? { kind, language } : { kind });
  });

  // Issue 22: ""TOTAL SAVINGS" taken as the total".
  it.each([
    ['TOTAL SAVINGS', 'savings'],
    ['TOTAL DISCOUNT', 'discount'],
    ['TOTAL TVA', 'tax'],
  ])('does not take "%s" for the total', (text, kind) => {
    expect(labelOf(text)?.kind).toBe(kind);
  });

  it.each([
    ['TOTALTOPAY', 'total'],
    ['APAYER', 'total'],
    ['BALANCEDUE', 'total'],
    ['SUMMEEUR', 'total'],
    ['SalesTax6.88%', 'tax'],
    ['ZWISCHENSUHME', 'subtotal'],
    ['ANOUNT DUE', 'total'],
    ['Total excl. VAT', 'subtotal'],
    ['Total incl. VAT', 'total'],
  ])('reads "%s", spaces dropped or a letter misread, as %s', (text, kind) => {
    expect(labelOf(text)?.kind).toBe(kind);
  });

  it('reads a label the OCR misread with digits for letters ("T0TAL", "TOTAI")', () => {
    expect(labelOf('T0TAL')?.kind).toBe('total');
    expect(labelOf('TOTAI')?.kind).toBe('total');
    expect(labelOf('SUBT0TAL')?.kind).toBe('subtotal');
  });

  it('reads a label word inside an item\'s name as no label ("Chocolate Bar")', () => {
    expect(labelOf('Chocolate Bar')).toBeUndefined();
    expect(labelOf('VAT Reg No 123 4567 89')).toBeUndefined();
  });
});
