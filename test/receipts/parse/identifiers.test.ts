import { describe, expect, it } from 'vitest';
import { readIdentifiers } from '../../../shared/receipts/ocr/parse/identifiers.js';

/** The identifiers' values read from rows of text, each read with confidence 0.9. */
const identifiersOf = (texts: string[], headerLength = 0) =>
  Object.fromEntries(
    Object.entries(
      readIdentifiers(
        texts.map((text) => ({ text, confidence: 0.9 })),
        headerLength,
      ),
    ).map(([name, reading]) => [name, reading.value]),
  );

// Issue 22: "Transaction ids (Trans, Order #, Check #, Bon-Nr., Ticket n°, Invoice No) and long
// barcodes are mostly missed".
describe('reading identifiers', () => {
  it.each([
    ['Trans 004512', '004512'],
    ['Trans #: 88231', '88231'],
    ['Transaction #: TX-88231', 'TX-88231'],
    ['Order # 1042', '1042'],
    ['Check #12', '12'],
    ['Bon-Nr. 4711', '4711'],
    ['Ticket n° 000231', '000231'],
    ['N° ticket: 5567', '5567'],
    ['Invoice No: INV-2025-0042', 'INV-2025-0042'],
    ['Receipt No: 550123', '550123'],
    ['Ticket No: 0O0141', '000141'],
    ['Trans 6#479053', '479053'],
    ['Tickel.n° 001954', '001954'],
  ])('reads the transaction id of "%s" as %s', (text, id) => {
    expect(identifiersOf([text]).transactionId).toBe(id);
  });

  it('reads no transaction id from a label with no number', () => {
    expect(identifiersOf(['CHECK: Table 4 Guests', 'RECEIPT']).transactionId).toBeUndefined();
  });

  it.each([
    ['5012345678900', '5012345678900'],
    ['5012 3456 7890 0', '5012345678900'],
    ['12345678', '12345678'],
  ])('reads the barcode %s', (text, barcode) => {
    expect(identifiersOf([text]).barcode).toBe(barcode);
  });

  it('reads no barcode from a phone number or a too-short number', () => {
    expect(identifiersOf(['Tel 0113 4960000', '1234567']).barcode).toBeUndefined();
    // A phone printed without its label, in the header.
    expect(identifiersOf(['SHOP', '09314608227', 'TOTAL 3.00', '406442943989'], 2).barcode).toBe('406442943989');
  });

  it("reads the store's number", () => {
    expect(identifiersOf(['Store #: S-104']).locationIdentifier).toBe('S-104');
    expect(identifiersOf(['Filiale 0815']).locationIdentifier).toBe('0815');
  });
});
