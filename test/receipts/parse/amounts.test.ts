import { describe, expect, it } from 'vitest';
import { amountAtEnd, amountsIn } from '../../../shared/receipts/ocr/parse/amounts.js';

// Issue 22: "Locale-aware amounts"; "comma decimals; "$208. 36"".
describe('reading amounts', () => {
  it.each([
    ['4,50', '4.50'],
    ['1.234,50', '1234.50'],
    ['1 290,00', '1290.00'],
    ['12 345,67 €', '12345.67'],
    ['1,234.50', '1234.50'],
    ["1'234.50", '1234.50'],
    ['$208. 36', '208.36'],
    ['-1.00', '-1.00'],
    ['1.00-', '-1.00'],
    ['€4,50', '4.50'],
    ['4,50 EUR', '4.50'],
    ['£ 12.00', '12.00'],
    ['AED 35.00', '35.00'],
    ['19;90', '19.90'],
    ['I.80', '1.80'],
    ['1:75', '1.75'],
    ['£13:47', '13.47'],
  ])('reads %s as %s', (text, value) => {
    expect(amountsIn(text).map((amount) => amount.text)).toEqual([value]);
  });

  it('keeps the currency printed beside an amount', () => {
    expect(amountsIn('Total 12.50 Dhs')[0]?.currency).toBe('Dhs');
    expect(amountsIn('£3.20')[0]?.currency).toBe('£');
  });

  it('reads the price a row ends with, past a VAT code letter ("4.50 A")', () => {
    expect(amountAtEnd('Milk 1L          4.50 A')?.text).toBe('4.50');
    expect(amountAtEnd('Apples Gala 2.80.')?.text).toBe('2.80');
  });

  it('reads a French row priced past a thousand as one item, not "… 1" at 290,00', () => {
    expect(amountAtEnd('Coffret champagne x6 ..... 1 290,00')?.text).toBe('1290.00');
    expect(amountsIn('2 x 4,50 9,00').map((amount) => amount.text)).toEqual(['4.50', '9.00']);
  });

  it('does not read a row that ends in words as priced', () => {
    expect(amountAtEnd('@ 9.50 each')).toBeUndefined();
  });

  it('takes a run of dashes from a leader for a leader, not a minus', () => {
    expect(amountAtEnd('TOTAL --57.00')?.text).toBe('57.00');
    expect(amountAtEnd('Claw Hammer - $18.50')?.text).toBe('18.50');
  });

  it('reads no amount in quantities, dates or percentages', () => {
    expect(amountsIn('1.132 kg')).toEqual([]);
    expect(amountsIn('24.10.2024')).toEqual([]);
    expect(amountsIn('VAT 20.00%')).toEqual([]);
  });

  // Issue 22: "Dates and times: "24.10.24 13:47", "18h43", 12-hour times": a time is no price,
  // though the OCR's colon may stand for a decimal point.
  it('reads no amount in a time printed without a currency mark', () => {
    expect(amountsIn('Check opened 13:47')).toEqual([]);
    expect(amountsIn('Served 4.05 pm')).toEqual([]);
  });
});
