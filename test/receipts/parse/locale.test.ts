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

  it('reads the language the labels are worded in', () => {
    expect(readLocale(['Zwischensumme 4,00', 'Summe 4,00', 'Bar 5,00', 'Rückgeld 1,00']).language?.value).toBe('de');
    expect(readLocale(['SOUS-TOTAL 4,00', 'TOTAL 4,00', 'Espèces 5,00']).language?.value).toBe('fr');
  });
});
