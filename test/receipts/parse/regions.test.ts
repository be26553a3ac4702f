import { describe, expect, it } from 'vitest';
import { settleTotals } from '../../../shared/receipts/ocr/parse/consistency.js';
import { emptyFoot, type Foot } from '../../../shared/receipts/ocr/parse/foot-amounts.js';
import { CALIBRATED_TOTAL_CONFIDENCE } from '../../../shared/receipts/ocr/parse/total-confidence.js';
import { headerRows } from '../../../shared/receipts/ocr/parse/header.js';
import { labelOf } from '../../../shared/receipts/ocr/parse/labels.js';
import { readLocale } from '../../../shared/receipts/ocr/parse/locale.js';
import { readMerchant } from '../../../shared/receipts/ocr/parse/merchant.js';
import { parseReceipt } from '../../../shared/receipts/ocr/parse/parse-receipt.js';
import { printedRows } from '../../../shared/receipts/ocr/parse/rows.js';
import { amountsIn } from '../../../shared/receipts/ocr/parse/amounts.js';
import { pageOf } from './ocr-layout.js';

const foot = (parts: Partial<Foot>): Foot => ({ ...emptyFoot(), ...parts });
const header = (text: string) => headerRows(printedRows(pageOf(text)), (row) => amountsIn(row.text).length > 0);

// Issue 32, Regions: "Malaysia and Singapore (RM, MYR, SGD, S$, GST/SST, SDN BHD/BHD/PTE LTD legal names,
// ROUNDING), and the Baltic receipts, without losing GB, US, DE, FR and AE."
describe('Malaysian, Singaporean and Latvian receipts', () => {
  it.each([
    [['TOTAL AMT ..RM 60.31'], 'MYR', 0.95],
    [['Total MYR 12.00'], 'MYR', 0.95],
    [['NETT TOTAL S$ 8.40'], 'SGD', 0.95],
    [['Total SGD 8.40'], 'SGD', 0.95],
    [['BOOK TA .K (TAMAN DAYA) SDN BHD', 'TOTAL 9.00'], 'MYR', 0.75],
    [['FAIRPRICE PTE LTD', 'TOTAL 9.00'], 'SGD', 0.75],
    [['SIA "Kanclers"', 'Katolu iela 7, Jelgava', 'SUMMA 9.59'], 'EUR', 0.75],
    // Signs of Malaysia the engine reads short or glued, with no "RM" printed: a registration
    // number, a GST number, a road or estate word glued to its name.
    [['SUNFISH', '<484297-M>', '22 LRG PERUSAHAAN4', 'TOTAL 28.70'], 'MYR', 0.75],
    [['SLF CASH & CARRY', '(002107265-V)', 'NO.15.JIN TSJ2.TMN SUBANG JASA.', 'TOTAL 21.20'], 'MYR', 0.75],
    [['TEO HENG STATIONERY & BOOKS', 'GSTNO.000689913856 19481', 'TOTAL 18.00'], 'MYR', 0.75],
    [['PERNIAGAAN ZHENG HUI', 'NO.59JALANPERMAS9/6', '81760JOHORBAHRU', 'TOTAL 8.00'], 'MYR', 0.75],
  ])('reads the currency of %j as %s', (texts, currency, confidence) => {
    expect(readLocale(texts).currency).toEqual({ value: currency, confidence });
  });

  it('reads a bare "$" as the ringgit or the Singapore dollar where the receipt says it is Malaysian or Singaporean', () => {
    const johor = ['UNIHAKKA INTERNATIONAL SDN BHD', '12, Jalan Tampoi 7/4, 81200 Johor Bahru'];
    expect(readLocale([...johor, 'Total Amount: $8.20', 'CASH $8.20']).currency).toEqual({
      value: 'MYR',
      confidence: 0.95,
    });
    expect(readLocale([...johor, 'Total Amount s8.20']).currency?.value).toBe('MYR');
    expect(readLocale(['FAIRPRICE PTE LTD', 'TOTAL $9.00']).currency?.value).toBe('SGD');
    expect(readLocale(['Austin, TX 78701', 'TOTAL $9.00']).currency?.value).toBe('USD');
  });

  it('reads dates day first in Malaysia and Latvia, as they are printed there', () => {
    expect(readLocale(['81100 JOHOR BAHRU, JOHOR', 'TOTAL 3.00']).dayFirst).toBe(true);
    expect(readLocale(['PVN LV40003021234', 'KOPA EUR 3.00']).dayFirst).toBe(true);
  });

  // A review: "LRG" is large on a coffee shop's receipt; names that begin like a Malay street word.
  it.each([
    [['BLUE BOTTLE COFFEE', '(512) 555-1234', 'LRG LATTE $5.25', 'LRG MOCHA $5.75', 'TOTAL $11.00'], 'US'],
    [['TAMANNA INDIAN CUISINE', 'TOTAL $11.00'], undefined],
    [['JALANDHAR GRILL', 'TOTAL $11.00'], undefined],
  ])('takes %j for no Malaysian receipt', (texts, country) => {
    expect(readLocale(texts).country).toBe(country);
    expect(readLocale(texts).currency?.value).toBe('USD');
  });

  it('takes no number of another country for a Malaysian registration or GST number', () => {
    expect(readLocale(['ORDER 20240115-A', 'TOTAL $9.00']).country).toBeUndefined();
    expect(readLocale(['VAT No. GB 123 4567 89', 'GST 5% 0.45', 'TOTAL £9.00']).country).toBe('GB');
    expect(readLocale(['Austin, TX 78701', 'Ref 1234567-B', 'TOTAL $9.00']).country).toBe('US');
  });

  it.each([
    ['Total Sales (Excluding GST) 51.42', 'subtotal'],
    ['Total Sales (Inclusive of GST) 54.50', 'total'],
    ['Total Sales (nclusiv of GST): 80.90', 'total'],
    ['Total GST 3.08', 'tax'],
    ['ROUNDING ADJ -0.01', 'rounding'],
    ['NETT TOTAL 12.00', 'total'],
    ['NET TOTAL 343.95', 'total'],
    ['Net Total Rounded (MYR) : 21.20', 'total'],
    ['Amt Due 129.30', 'total'],
    ['Net Amt : 53.55', 'total'],
    ['Tatal Sales (lnclusive of GST) : 32.70', 'total'],
    ['TOTAE RM57.80', 'total'],
    ['Tota 21.40', 'total'],
    ['Total Qty: 7 51.42', 'itemCount'],
    ['KOPA EUR 9.59', 'total'],
    ['SUMMA 9.59', 'subtotal'],
    ['SK.NAUDA 5.00', 'cash'],
    ['IZDOTS EUR 2.50', 'change'],
    ['PVN-A 21.00% 1.66', 'tax'],
    ['BEZ PVN-A 21.00% 7.93', 'taxTable'],
    ['AR PVN-A 21.00% 9.59', 'taxTable'],
  ])('reads "%s" as a %s row', (text, kind) => {
    expect(labelOf(text)?.kind).toBe(kind);
  });

  it("does not take the seller's VAT number in the header for a tax", () => {
    expect(labelOf('PVN LV 43603014262')).toBeUndefined();
  });

  it('reads a Latvian receipt whole: KOPA is the total, the card pays it', () => {
    const parsed = parseReceipt(
      pageOf(
        'SIA "Kanclers"\nKatolu iela 7, Jelgava\nPVN LV 43603014262\nMatrica 1x9.59=\n9.59A\nSUMMA 9.59\nKOPA EUR 9.59\nKARTE 9.59\nPVN-A 21.00% 1.66\n09.02.2022 17:49',
      ),
    );
    expect([parsed.fields.total?.value, parsed.fields.currency?.value, parsed.fields.serviceDate?.value]).toEqual([
      '9.59',
      'EUR',
      '2022-02-09',
    ]);
  });
});

// Issue 32: "ROUNDING ADJ", "cash tendered and change near the total": Malaysia rounds what cash pays to 5 sen.
describe('a total and its rounding', () => {
  /** A foot printing TOTAL `total`, ROUNDING -0.01, then `printed` (more amounts), paid in cash with change. */
  const rounded = (total: number, printed: number[], cash: number, change?: number) =>
    settleTotals(
      foot({
        totals: [{ value: total, confidence: 0.95 }],
        roundings: [-0.01],
        charges: [-0.01],
        printed: [total, -0.01, ...printed],
        tenders: [cash],
        cashTendered: true,
        changes: change === undefined ? [] : [change],
      }),
    ).total;

  it('takes the rounded amount the receipt prints under the rounding, which the cash less change pays', () => {
    expect(rounded(60.31, [60.3, 70.3, 10], 70.3, 10)).toEqual({
      value: 60.3,
      confidence: CALIBRATED_TOTAL_CONFIDENCE.paid,
      evidence: 'paid',
    });
  });

  it('keeps the printed total when the rounded amount is not printed, the payment with its rounding confirming it', () => {
    expect(rounded(80.91, [100, 19.1], 100, 19.1)).toEqual({
      value: 80.91,
      confidence: CALIBRATED_TOTAL_CONFIDENCE['paid with its rounding'],
      evidence: 'paid with its rounding',
    });
  });

  // Issue 32: "an authorized claim never carries a total the receipt's own arithmetic … contradicts".
  it('keeps under the review threshold a total the subtotal picks out of two printed totals when no payment settles it', () => {
    const settled = settleTotals(
      foot({
        totals: [
          { value: 42.48, confidence: 0.95 },
          { value: 42.5, confidence: 0.95 },
        ],
        subtotals: [{ value: 42.48, confidence: 0.95 }],
        printed: [42.48, 42.48, 42.5, 50],
        tenders: [50],
        cashTendered: true,
      }),
    );
    expect(settled.total).toEqual({ value: 42.48, confidence: 0.428, evidence: 'contested' });
  });

  it('still leaves out a total a payment contradicts by more than its rounding', () => {
    expect(rounded(80.91, [79.5], 79.5)).toBeUndefined();
  });
});

// Issue 32: "Real receipts print … ROUNDING ADJ, TOTAL INCL. GST, cash tendered and change near the total".
describe('Malaysian payment and total wordings', () => {
  it.each([
    ['Sub Total (Exclusive GST): 17.75', 'subtotal'],
    ['(Excluded GST) Sub Total (RM) 106.10', 'subtotal'],
    ['TOTALINCL.GST@6 RM 71.90', 'total'],
    ['Cash Change 1.20', 'change'],
    ['Roundlng (RM) : -0.02', 'rounding'],
  ])('reads "%s" as %s', (text, kind) => {
    expect(labelOf(text)?.kind).toBe(kind);
  });

  it('reads a payment printed as taken off the amount due ("Cash -50.00") as paying it', () => {
    const claim = parseReceipt(
      pageOf(
        'KEDAI SERBANEKA SDN BHD\nTotal RM Incl. of GST 49.39\nRounding Adj 0.01\nTotal RM 49.40\nCash -50.00\nCHANGE 0.60',
      ),
    );
    expect(claim.fields.total).toEqual({ value: '49.40', confidence: CALIBRATED_TOTAL_CONFIDENCE.paid });
  });

  it('reads a total printed with a dash before it ("RM-38.80") when the payment confirms it', () => {
    const claim = parseReceipt(pageOf('TOTAL INCL.GST@6% RM-38.80\nCASH RM 50.00\nCHANGE RM 11.20'));
    expect(claim.fields.total?.value).toBe('38.80');
  });

  it('reaches the total through one tax row when another "tax" row is the total whose label was cut short', () => {
    const claim = parseReceipt(
      pageOf(
        'Total Sales(ExcludingGST) 565.50\notal GST 33.93\nRounding 0.02\nalsales (Inclusive of GsT) : 599.45\nCASH : 599.45\nChange : 0.00',
      ),
    );
    expect(claim.fields.total?.value).toBe('599.45');
  });

  it('takes a "rounding" row of a ringgit or more, near the printed total, for the rounded total', () => {
    const claim = parseReceipt(
      pageOf('Total Sales (Inclusive GST) RM 45.34\nRounding RM 45.35\nCREDIT RM 45.35\nCHANGE RM 0.00'),
    );
    expect(claim.fields.total?.value).toBe('45.35');
  });

  it('reads no total off a refund, its total and its payment both negative', () => {
    const claim = parseReceipt(pageOf('REFUND\nTOTAL RM-38.80\nCASH RM-38.80'));
    expect(claim.fields.total).toBeUndefined();
  });

  it('reads an item whose first word is a longer word than a label ("GROUNDING MAT") as an item', () => {
    expect(labelOf('GROUNDING MAT 12.00')).toBeUndefined();
  });

  it('reads the amount after a ringgit sign with an O for its nought ("RMO.02")', () => {
    expect(amountsIn('ROUNDING RMO.02').map((amount) => amount.value)).toEqual([0.02]);
  });
});

// Issue 32: "The merchant is the trading name when one is printed, else the legal name; the parse keeps both when
// both are printed (merchantName and a merchantLegalName …)"; docs/receipts.md#parsing: the legal name is a read
// field of its own, `merchantLegalName`, with its row's confidence.
describe('the trading name and the legal name', () => {
  it('takes the trading name printed above the legal name, and keeps the legal name beside it', () => {
    expect(readMerchant(header('BREWERY TAP\nOwner by Castle Blue S/B\n(1035683-T)\nTOTAL 9.00'))).toMatchObject({
      value: 'BREWERY TAP',
      legalName: { value: 'Owner by Castle Blue S/B' },
    });
    expect(
      readMerchant(header('INSTRUMENTU NAMS\nAkademijas iela 17, Jelgava\nSIA "KONGS" PVN LV43603006320\nKOPA 3.90')),
    ).toMatchObject({ value: 'INSTRUMENTU NAMS', legalName: { value: 'SIA "KONGS"' } });
  });

  // The Latvian tune set: a closing quote read as a typographer's, "LTD" read as "LTO".
  it('reads a legal name closed by any quote, its misread legal form restored', () => {
    expect(
      readMerchant(header('INSTRUMENTU NAMS\nAkademijas iela 17. Jelgava\nSIA "KONGS’ PUN LU43603006320\nKOPA 3.90')),
    ).toMatchObject({ legalName: { value: 'SIA "KONGS’' } });
    expect(readMerchant(header('SIA "A.G. A.LTO\nPUN LV 41702004458\nKOPA 5.80'))?.value).toBe('SIA "A.G. A.LTD');
    // An apostrophe inside the name, and LTO beginning it, stay.
    expect(readMerchant(header('SIA "ELVI’S LATVIJA"\nKOPA 5.80'))?.value).toBe('SIA "ELVI’S LATVIJA"');
    expect(readMerchant(header('SIA "LTO SERVISS"\nKOPA 5.80'))?.value).toBe('SIA "LTO SERVISS"');
    expect(readMerchant(header('ABC PTE LTO GST REG 201234567X\nTOTAL 5.80'))?.value).toBe('ABC PTE LTD');
  });

  it("keeps the legal name beside a known merchant read off another row, and none when the known name is the legal name's row", () => {
    const printed = header('BREWERY TAP\nOwner by Castle Blue S/B\n(1035683-T)\nTOTAL 9.00');
    expect(readMerchant(printed, ['Brewery Tap'])).toMatchObject({
      value: 'Brewery Tap',
      legalName: { value: 'Owner by Castle Blue S/B' },
    });
    const legalOnly = readMerchant(header('MPH BOOKSTORES SDN BHD\n(1234567-X)\nTOTAL 9.00'), [
      'MPH Bookstores Sdn Bhd',
    ]);
    expect(legalOnly?.value).toBe('MPH Bookstores Sdn Bhd');
    expect(legalOnly?.legalName).toBeUndefined();
  });

  it('takes the legal name when no other name is printed, with no second name', () => {
    const merchant = readMerchant(
      header('SYL ROASTED DELIGHTS SDN. BHD.\n(1234567-X)\nNO. 5, JALAN SAGU 18\nTOTAL 9.00'),
    );
    expect(merchant?.value).toBe('SYL ROASTED DELIGHTS SDN. BHD.');
    expect(merchant?.legalName).toBeUndefined();
  });

  it("puts the legal name in the parse as merchantLegalName, with its row's confidence", () => {
    const parsed = parseReceipt(pageOf('BREWERY TAP\nOwner by Castle Blue S/B{0.8}\nBeer 9.00\nTOTAL 9.00\nCASH 9.00'));
    expect([parsed.fields.merchantName?.value, parsed.fields.merchantLegalName]).toEqual([
      'BREWERY TAP',
      { value: 'Owner by Castle Blue S/B', confidence: 0.8 },
    ]);
  });

  it('takes no row without a capital for a name: a note or a name written on the slip', () => {
    expect(readMerchant(header('tan woon yann\nINDAH GIFT & HOME DECO\n27, JALAN DEDAP 13\nTOTAL 9.00'))?.value).toBe(
      'INDAH GIFT & HOME DECO',
    );
  });

  it('takes a Malaysian address for no name: its road, or its state', () => {
    expect(
      readMerchant(header('TEO HENG STATIONERY\nNO.53 JALAN SELANGOR 8\nSELANGOR DARUL EHSAN\nTOTAL 9.00'))?.value,
    ).toBe('TEO HENG STATIONERY');
  });
});
