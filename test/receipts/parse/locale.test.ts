import { describe, expect, it } from 'vitest';
import { readLocale } from '../../../shared/receipts/ocr/parse/locale.js';

// Issue 22: "Locale-aware amounts and dates chosen from the receipt's own evidence (currency
// symbols and codes, VAT labels, language of the labels, the address)".
describe("reading the receipt's locale", () => {
  it.each([
    [['Tea £2.50'], 'GBP'],
    [['Total $12.00'], 'USD'],
    [['Summe 4,00 €'], 'EUR'],
    [['TOTAL AED 35.00'], 'AED'],
    [['Total 35.00 Dhs'], 'AED'],
    [['Total 4.00 GBP'], 'GBP'],
  ])('reads the currency printed beside amounts: %j → %s', (texts, currency) => {
    expect(readLocale(texts).currency).toEqual({ value: currency, confidence: 0.95 });
  });

  it('infers the currency from the country, with less confidence, when no amount names it', () => {
    expect(readLocale(['Hauptstr. 5, 10115 Berlin', 'SUMME 4,00']).currency).toEqual({
      value: 'EUR',
      confidence: 0.75,
    });
    expect(readLocale(['Sheikh Zayed Road, Dubai', 'TOTAL 35.00']).currency?.value).toBe('AED');
    expect(readLocale(['12 High Street, Leeds LS1 4AB', 'TOTAL 3.00']).currency?.value).toBe('GBP');
  });

  // Issue 32: "without losing GB, US, DE, FR and AE": a detector reading at a higher resolution
  // drops the narrow space between the tax's name and its rate.
  it('reads the country from the tax glued to its rate ("MwSt19%", "dont TVA20%")', () => {
    expect(readLocale(['Zu zahlen 91,20', 'MwSt19%enthalten 14,56']).currency?.value).toBe('EUR');
    expect(readLocale(['TOTAL 15,90', 'dont TVA20% 1,41']).currency?.value).toBe('EUR');
  });

  it('reads no dollar from an s before a comma amount ("Summe s12,50")', () => {
    expect(readLocale(['Hauptstr. 5, 10115 Berlin', 'Summe s12,50']).currency).toEqual({
      value: 'EUR',
      confidence: 0.75,
    });
  });

  it('reads dates month first only in the US, and says nothing without evidence', () => {
    expect(readLocale(['Austin, TX 78701', 'TOTAL 3.00']).dayFirst).toBe(false);
    expect(readLocale(['8 Rue de la Paix, Paris', 'TOTAL 3,00']).dayFirst).toBe(true);
    expect(readLocale(['SHOP', 'TOTAL 3.00']).dayFirst).toBeUndefined();
  });

  // Issue 22: "US month-first against day-first elsewhere", chosen "from the receipt's own evidence".
  it('leaves the day order undecided when the country and the currency printed disagree', () => {
    expect(readLocale(['SKU W1 2AB', 'Total $12.00']).dayFirst).toBeUndefined();
    expect(readLocale(['12 High Street, Leeds LS1 4AB', 'Total £12.00']).dayFirst).toBe(true);
    expect(readLocale(['Total $12.00']).dayFirst).toBe(false);
  });

  it('reads a British postcode printed without its space', () => {
    expect(readLocale(['Leeds LS14AB', 'TOTAL 3.00']).country).toBe('GB');
  });

  // Issue 22: "currency at least 95%", read from "VAT labels ... the address" when no amount
  // carries a mark (the engine's dictionary has no £ or €).
  it.each([
    ['VAT 802 6613 19'],
    ['VAT802661319'],
    ['VAT No. GB 284 5519 07'],
    ['VAT802.661319'],
    ['ChesterCH1 2HQ'],
    ['Chester CH1.2HQ'],
  ])('reads a British VAT number or a misread postcode as Britain: %s', (sign) => {
    expect(readLocale(['77 Northgate', sign, 'TOTAL 21.92']).currency).toEqual({ value: 'GBP', confidence: 0.75 });
  });

  it("takes no country from VAT 5%, Britain's reduced rate and the Emirates' only one", () => {
    expect(readLocale(['VAT 20% incl 3.74', 'VAT5%incl. 0.32']).country).toBe('GB');
    expect(readLocale(['VAT 5% 1.20', 'TOTAL 25.20']).country).toBeUndefined();
    expect(readLocale(['TRN 100384729100003', 'VAT 5% 1.20']).country).toBe('AE');
  });

  it('reads no British postcode inside a capitalised word or a longer tax number', () => {
    expect(readLocale(['ROCHESTER', 'TOTAL 3.00']).country).toBeUndefined();
    expect(readLocale(['VAT Reg 100384729100003', 'TRN 100384729100003']).country).not.toBe('GB');
  });

  it('reads the language the labels are worded in', () => {
    expect(readLocale(['Zwischensumme 4,00', 'Summe 4,00', 'Bar 5,00', 'Rückgeld 1,00']).language?.value).toBe('de');
    expect(readLocale(['SOUS-TOTAL 4,00', 'TOTAL 4,00', 'Espèces 5,00']).language?.value).toBe('fr');
  });
});
