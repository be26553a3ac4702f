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
    expect(readMerchant(rows)?.value).toBe('SPINNEYS');
  });

  it('takes the prominent (tall) name over a slogan above it', () => {
    const rows = header('Fresh food every day\n#THE DELI\n12 Market St\nBread 4.00');
    expect(readMerchant(rows)?.value).toBe('THE DELI');
  });

  // Issue 32: SROIE's "SAM SAM TRADING CO" above its address, and an item's description printed
  // large above the first price; a folded slip read from its foot first.
  it('takes a name above the address over one printed large under it', () => {
    const rows = header(
      'SAM SAM TRADING CO\n67,JLN MEWAH 25/63 TMN SRI MUDA,\nTAX INVOICE\n#UNICORN TWIN SUPER GLUE\n1X 5.20',
    );
    expect(readMerchant(rows)?.value).toBe('SAM SAM TRADING CO');
  });

  it("takes the shop's terms for no name", () => {
    const rows = header(
      'GOODS SOLD ARE INOT RETURNABLE. THAPK YOU\nSLF CASH & CARRY\nOFF JLN BT 3 SUBANG.\nBread 4.00',
    );
    expect(readMerchant(rows)?.value).toBe('SLF CASH & CARRY');
  });

  it.each([
    'KEDAI UBAT PERAK (123456-X)',
    'KEDAI UBAT (12345-X)',
    'JOHOR 2 GO SDN BHD',
    'RESTORAN PENANG 88',
    'PENANG 2 CAFE',
  ])("takes %s, a name with a state's and a number, for the name", (name) => {
    expect(readMerchant(header(`${name}\nBread 4.00`))?.value).toBe(name.replace(/ \(\d+-X\)/, ''));
  });

  it("takes a row with a Malaysian state's name and a number, read with specks between, for the address", () => {
    const rows = header('TEO HENG STATIONERY\n(001451637-M)\nNO.53ALN SELANGOR AR DARUL A EHSAN O\nBread 4.00');
    expect(readAddress(rows)?.value).toBe('NO.53ALN SELANGOR AR DARUL A EHSAN O');
    expect(readMerchant(rows)?.value).toBe('TEO HENG STATIONERY');
  });

  it('drops stray marks at the edges of the name', () => {
    const rows = header(': Bistro Lumiere:\nBread 4.00');
    expect(readMerchant(rows)?.value).toBe('Bistro Lumiere');
  });

  // Issue 32: "Real receipts print the legal name with SDN BHD under or above a trading name".
  it.each([
    ['AEON C0.(M) BHD', 'AEON CO.(M) BHD'],
    ['KMF F00DICI0US SDN BHD', 'KMF FOODICIOUS SDN BHD'],
    ['1STOP MART', '1STOP MART'],
    ['99 SPEED MART S/B', '99 SPEED MART S/B'],
  ])('restores the letters the engine read as digits inside a name: %s', (printed, name) => {
    expect(readMerchant(header(`${printed}\nBread 4.00`))?.value).toBe(name);
  });

  it.each([
    ['TEO HENG STATIONERY (001451697-M) & BOOKS', 'TEO HENG STATIONERY & BOOKS'],
    ['SUPER SEVEN CASH & CARRY SDN 3HD', 'SUPER SEVEN CASH & CARRY SDN BHD'],
    ['WAHIN HARDWARE SON BHI', 'WAHIN HARDWARE SDN BHD'],
  ])('reads a Malaysian name without its registration number, its legal form restored: %s', (printed, name) => {
    expect(readMerchant(header(`${printed}\nBread 4.00`))?.value).toBe(name);
  });

  it('takes a row that starts with a Malay estate word, or ends with MALAYSIA, for an address, not a name', () => {
    expect(readMerchant(header('TAMAN BERKELEY\n99 SPEED MART S/B\nBread 4.00'))?.value).toBe('99 SPEED MART S/B');
    expect(readMerchant(header('KLANG SELANGOR D.E, MALAYSIA\nLIGHTROOM GALLERY SDN BHD\nBread 4.00'))?.value).toBe(
      'LIGHTROOM GALLERY SDN BHD',
    );
    expect(readMerchant(header('Table5\nSUNFISH\nBread 4.00'))?.value).toBe('SUNFISH');
  });

  it.each(['ROUND TABLE CAFE', 'KAMPUNG KITCHEN', 'STARBUCKS COFFEE MALAYSIA', 'LOT 10 HUTONG'])(
    'still takes %s, a name that holds an address or table word, for the name',
    (name) => {
      expect(readMerchant(header(`${name}\nBread 4.00`))?.value).toBe(name);
    },
  );

  it("takes a restaurant's table, its order number and the payment printed above the items for no name", () => {
    const rows = header('Table 15\nYour order number is\nCASH\nSWEET FOREST CAFE\nBread 4.00');
    expect(readMerchant(rows)?.value).toBe('SWEET FOREST CAFE');
    expect(readMerchant(header('SLF CASH & CARRY\nBread 4.00'))?.value).toBe('SLF CASH & CARRY');
  });

  it("gives a known merchant's configured spelling when the header nearly prints it", () => {
    const rows = header('MILLER DROGERIE\nHauptstr. 5\nBread 4,00');
    const known = readMerchant(rows, ['Müller Drogerie', 'Rossmann']);
    expect(known?.value).toBe('Müller Drogerie');
    expect(known?.confidence).toBeGreaterThan(0.95);
  });

  it('keeps the printed name when no known merchant is near it', () => {
    const rows = header('CORNER SHOP\nBread 4.00');
    expect(readMerchant(rows, ['Rossmann'])?.value).toBe('CORNER SHOP');
  });

  // Issue 22: "Merchant from the header, cross-checked against the tenant's known merchants and venues
  // when configured": a cross-check, so a known name hidden in another word makes no match.
  it('does not take a known name found inside a longer printed name', () => {
    const rows = header('EMERALD ISLE CAFE\n4 Harbour Road\nTea 2.50');
    expect(readMerchant(rows, ['ALDI'])?.value).toBe('EMERALD ISLE CAFE');
  });

  it('takes a known name printed with specks read as letters beside it', () => {
    const rows = header('Bistro Lumiere i BR\n8 Rue de la Paix\nCafe 2,50');
    expect(readMerchant(rows, ['Bistro Lumière'])?.value).toBe('Bistro Lumière');
  });

  it('takes a known name after a greeting on its row', () => {
    const rows = header('Willkommen bei\nWillkommen bei ALDI\nBrot 1,20');
    expect(readMerchant(rows, ['ALDI'])?.value).toBe('ALDI');
  });

  it('keeps the name printed large when it disagrees with every known name', () => {
    const rows = header('#THE DELI\nCosta\n12 Market St\nBread 4.00');
    expect(readMerchant(rows, ['Costa'])?.value).toBe('THE DELI');
  });

  it('reads the address printed under the name', () => {
    const rows = header('CORNER SHOP\n12 High Street\nLeeds LS1 4AB\nTel 0113 4960000\nBread 4.00');
    expect(readAddress(rows)?.value).toBe('12 High Street, Leeds LS1 4AB');
  });
});
