import { describe, expect, it } from 'vitest';
import type { OcrPage, ReadOptions } from '../../shared/receipts/ocr/ocr-page.js';
import { readReceipt } from '../../shared/receipts/ocr/read-receipt.js';
import { pageOf } from './parse/ocr-layout.js';

const ADDS_UP = pageOf('CORNER SHOP\n2025-03-12 10:14\nTea 2.50\nTOTAL 2.50\nCASH 5.00\nCHANGE 2.50');
/** The total misread (3.50 for 2.50), which the item's price contradicts. */
const NO_TOTAL = pageOf('CORNER SHOP\n2025-03-12 10:14\nTea 2.50\nTOTAL 3.50');
const NOTHING = pageOf('CORNER SHOP\nThank you');

/** A reader giving `first` at the first look and `closer` at a closer one, and the looks it was asked for. */
function readerOf(first: OcrPage, closer: OcrPage) {
  const looks: boolean[] = [];
  return {
    looks,
    looksCloser: true,
    readText: (_image: Buffer, { closer: closely = false }: ReadOptions = {}) => {
      looks.push(closely);
      return Promise.resolve(closely ? closer : first);
    },
  };
}

// Issue 32, Read better: "a second pass on the low-confidence lines"; docs/receipts.md#the-engine.
describe('reading a receipt, and again more closely when it does not add up', () => {
  it('reads once a receipt whose total its arithmetic confirms and whose date is read', async () => {
    const reader = readerOf(ADDS_UP, NOTHING);
    const { parsed } = await readReceipt(reader, Buffer.from('image'));
    expect(reader.looks).toEqual([false]);
    expect(parsed.fields.total?.value).toBe('2.50');
  });

  it('reads more closely a receipt whose total was not confirmed, and keeps the closer reading that adds up', async () => {
    const reader = readerOf(NO_TOTAL, ADDS_UP);
    const { page, parsed } = await readReceipt(reader, Buffer.from('image'));
    expect(reader.looks).toEqual([false, true]);
    expect(page).toBe(ADDS_UP);
    expect(parsed.fields.total?.value).toBe('2.50');
  });

  it('asks an engine with no closer look once, whatever its first read gave', async () => {
    const reader = { ...readerOf(NO_TOTAL, ADDS_UP), looksCloser: false };
    expect((await readReceipt(reader, Buffer.from('image'))).page).toBe(NO_TOTAL);
    expect(reader.looks).toEqual([false]);
  });

  it('keeps the first reading when the closer one stands no better', async () => {
    const reader = readerOf(NO_TOTAL, NOTHING);
    const { page, parsed } = await readReceipt(reader, Buffer.from('image'));
    expect(reader.looks).toEqual([false, true]);
    expect(page).toBe(NO_TOTAL);
    expect(parsed.fields.serviceDate?.value).toBe('2025-03-12');
  });
});
