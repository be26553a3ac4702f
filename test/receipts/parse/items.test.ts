import { describe, expect, it } from 'vitest';
import { parseReceipt } from '../../../shared/receipts/ocr/parse/parse-receipt.js';
import { pageOf } from './ocr-layout.js';

const items = (text: string) =>
  parseReceipt(pageOf(`SHOP\n${text}`)).lineItems.map(({ confidence: _confidence, ...item }) => item);

// Issue 22: "The parser reads one line at a time: items printed over two lines ... are lost or
// stored under the wrong text; a leading count ("2 Sea Bass 39.90") and table layouts
// (Item | Qty | Price | Amount) are not understood."
describe('reading line items', () => {
  it('attaches "2 x 4.50  9.00" to the description printed above it', () => {
    expect(
      items(`
Orange Juice 1L
  2 x 4.50                  9.00
Bread                       1.20
TOTAL                      10.20`),
    ).toEqual([
      { description: 'Orange Juice 1L', quantity: 2, unitPrice: 4.5, totalPrice: 9 },
      { description: 'Bread', quantity: 1, unitPrice: 1.2, totalPrice: 1.2 },
    ]);
  });

  it('reads weighed goods: "1.132 kg @ £0.75/kg  0.85"', () => {
    expect(
      items(`
Bananas
1.132 kg @ £0.75/kg         0.85
TOTAL                       0.85`),
    ).toEqual([{ description: 'Bananas', quantity: 1.132, unit: 'kg', unitPrice: 0.75, totalPrice: 0.85 }]);
  });

  it('reads fuel: "38.52 L @ £1.459/L  56.20"', () => {
    expect(
      items(`
Unleaded Pump 4
38.52 L @ £1.459/L         56.20
TOTAL                      56.20`),
    ).toEqual([{ description: 'Unleaded Pump 4', quantity: 38.52, unit: 'l', unitPrice: 1.459, totalPrice: 56.2 }]);
  });

  it('reads metered goods the OCR garbled: "8.087 gal @ $4.159/gal", "1.212Ib@$6.99/lb", "42,25I×EUR1.689"', () => {
    expect(items('Premium\n8.087 gal @ $4.159/gal      33.63\nTOTAL 33.63')).toEqual([
      { description: 'Premium', quantity: 8.087, unit: 'gal', unitPrice: 4.159, totalPrice: 33.63 },
    ]);
    expect(items('Ground Beef\n1.212Ib@$6.99/lb             8.47\nTOTAL 8.47')[0]).toMatchObject({
      quantity: 1.212,
      unit: 'lb',
    });
    expect(items('Diesel\n42,25I×EUR1.689              71,36\nSUMME 71,36')[0]).toMatchObject({
      description: 'Diesel',
      quantity: 42.25,
      unit: 'l',
      unitPrice: 1.689,
    });
  });

  it('takes a last "item" priced at the sum of those above it for a subtotal whose label was misread', () => {
    const parsed = parseReceipt(
      pageOf(`
SHOP
Bread                       2.00
Milk                        1.50
Sublolal                    3.50
TOTAL                       3.50`),
    );
    expect(parsed.lineItems.map((item) => item.description)).toEqual(['Bread', 'Milk']);
    expect(parsed.fields.subtotal?.value).toBe('3.50');
  });

  it('reads weighed goods on one row', () => {
    expect(items('Apples 0.500 kg @ 2.40/kg    1.20\nTOTAL 1.20')).toEqual([
      { description: 'Apples', quantity: 0.5, unit: 'kg', unitPrice: 2.4, totalPrice: 1.2 },
    ]);
  });

  it('takes a quantity line above the item for that item', () => {
    expect(
      items(`
3 x
Espresso                    6.60
TOTAL                       6.60`),
    ).toEqual([{ description: 'Espresso', quantity: 3, unitPrice: 2.2, totalPrice: 6.6 }]);
  });

  it('takes "@ 9.50 each" below an item as its unit price', () => {
    expect(
      items(`
Cocktail                   19.00
  @ 9.50 each
TOTAL                      19.00`),
    ).toEqual([{ description: 'Cocktail', quantity: 2, unitPrice: 9.5, totalPrice: 19 }]);
  });

  it('reads a leading count: "2 Sea Bass 39.90"', () => {
    expect(items('2 Sea Bass                 39.90\nTOTAL 39.90')).toEqual([
      { description: 'Sea Bass', quantity: 2, unitPrice: 19.95, totalPrice: 39.9 },
    ]);
  });

  it('reads a table by its columns: Item | Qty | Price | Amount', () => {
    expect(
      items(`
Item            Qty   Price   Amount
Widget            2    4.50     9.00
Gadget Large      1   12.00    12.00
TOTAL                          21.00`),
    ).toEqual([
      { description: 'Widget', quantity: 2, unitPrice: 4.5, totalPrice: 9 },
      { description: 'Gadget Large', quantity: 1, unitPrice: 12, totalPrice: 12 },
    ]);
  });

  it('reads a table whose price comes before the quantity', () => {
    expect(
      items(`
Description     Price  Qty  Total
Croissant        1.50    4   6.00
TOTAL                        6.00`),
    ).toEqual([{ description: 'Croissant', quantity: 4, unitPrice: 1.5, totalPrice: 6 }]);
  });

  it('reads a fuel table whose quantity has decimals and whose unit price has three', () => {
    expect(
      items(`
Item          Qty     Price   Amount
Unleaded    56.03     1.459    81.75
TOTAL                          81.75`),
    ).toEqual([{ description: 'Unleaded', quantity: 56.03, unitPrice: 1.459, totalPrice: 81.75 }]);
  });

  // Issue 22: "discount, tender, change and deposit lines become items".
  it('keeps discounts, deposits, taxes and VAT tables out of the items', () => {
    expect(
      items(`
Mineralwasser               0,99
Pfand                       0,25
Rabatt 10%                 -0,10
Milch                       1,19 A
Zwischensumme               2,33
MwSt 7%                     0,14
A  7%    1,99   0,14    2,13
SUMME                       2,33
Bar                         5,00
Rückgeld                    2,67`),
    ).toEqual([
      { description: 'Mineralwasser', quantity: 1, unitPrice: 0.99, totalPrice: 0.99 },
      { description: 'Milch', quantity: 1, unitPrice: 1.19, totalPrice: 1.19 },
    ]);
  });

  it('reads rows that PaddleOCR split (the price as a line of its own) as one item', () => {
    const page = pageOf('SHOP\nTea                          2.50\nTOTAL                        2.50');
    expect(page.lines).toHaveLength(5);
    expect(parseReceipt(page).lineItems.map((item) => item.description)).toEqual(['Tea']);
  });
});
