import { describe, expect, it } from 'vitest';
import { headerRows, readAddress } from '../../../shared/receipts/ocr/parse/header.js';
import { readMerchant } from '../../../shared/receipts/ocr/parse/merchant.js';
import { printedRows } from '../../../shared/receipts/ocr/parse/rows.js';
import { amountsIn } from '../../../shared/receipts/ocr/parse/amounts.js';
import { pageOf } from './ocr-layout.js';

const header = (text: string) => headerRows(printedRows(pageOf(text)), (row) => amountsIn(row.text).length > 0);

// Issue 22: "Merchant from the header, cross-checked against the tenant's known merchants and venues when configured."
describe("reading the merchant's name", () => {
  it('takes the first name row, skipping titles, phones and addresses', () => {
    const rows = header('TAX INVOICE\nTel +971 4 123 4567\nSPINNEYS\nAl Wasl Road, Dubai\nBread 4.00');
    expect(readMerchant(rows, rows)?.value).toBe('SPINNEYS');
  });

  it('takes the prominent (tall) name over a slogan above it', () => {
    const rows = header('Fresh food every day\n#THE DELI\n12 Market St\nBread 4.00');
    expect(readMerchant(rows, rows)?.value).toBe('THE DELI');
  });

  it('drops stray marks at the edges of the name', () => {
    const rows = header(': Bistro Lumiere:\nBread 4.00');
    expect(readMerchant(rows, rows)?.value).toBe('Bistro Lumiere');
  });

  it("gives a known merchant's configured spelling when the header nearly prints it", () => {
    const rows = header('MILLER DROGERIE\nHauptstr. 5\nBread 4,00');
    const known = readMerchant(rows, rows, ['Müller Drogerie', 'Rossmann']);
    expect(known?.value).toBe('Müller Drogerie');
    expect(known?.confidence).toBeGreaterThan(0.95);
  });

  it('keeps the printed name when no known merchant is near it', () => {
    const rows = header('CORNER SHOP\nBread 4.00');
    expect(readMerchant(rows, rows, ['Rossmann'])?.value).toBe('CORNER SHOP');
  });

  it('reads the address printed under the name', () => {
    const rows = header('CORNER SHOP\n12 High Street\nLeeds LS1 4AB\nTel 0113 4960000\nBread 4.00');
    expect(readAddress(rows)?.value).toBe('12 High Street, Leeds LS1 4AB');
  });
});
