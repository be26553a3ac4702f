import { describe, expect, it } from 'vitest';
import type { OcrPage } from '../../../shared/receipts/ocr/ocr-page.js';
import { parseReceipt } from '../../../shared/receipts/ocr/parse/parse-receipt.js';
import { printedRows } from '../../../shared/receipts/ocr/parse/rows.js';
import { pageOf } from './ocr-layout.js';

// Issue 22: "Work from word boxes, not only text lines: group words into rows by position".
describe('grouping words into printed rows', () => {
  it('joins lines printed at the same height into one row (a price PaddleOCR read apart)', () => {
    const rows = printedRows(pageOf('Oat Milk 1L                2.50\nBread                      1.20'));
    expect(rows.map((row) => row.text)).toEqual(['Oat Milk 1L 2.50', 'Bread 1.20']);
  });

  it('follows a row printed slightly askew', () => {
    const rows = printedRows(
      pageOf('Oat Milk 1L                                  2.50\nBread                                        1.20', {
        slope: 0.02,
      }),
    );
    expect(rows.map((row) => row.text)).toEqual(['Oat Milk 1L 2.50', 'Bread 1.20']);
  });

  it('measures the tilt of a photo taken askew and levels the rows by it', () => {
    const rows = printedRows(
      pageOf(
        `
Oat Milk 1L                                  2.50
Sourdough Loaf                               4.00
Free Range Eggs                              3.20`,
        { slope: 0.05 },
      ),
    );
    expect(rows.map((row) => row.text)).toEqual(['Oat Milk 1L 2.50', 'Sourdough Loaf 4.00', 'Free Range Eggs 3.20']);
  });

  it('keeps a row as sure as its worst-read word', () => {
    const [row] = printedRows(pageOf('TOTAL       8.50{0.4}', { confidence: 0.9 }));
    expect(row?.confidence).toBe(0.4);
  });

  // Issue 22: "Parser units are tested without PostgreSQL (pure functions over OCR output)": any
  // output, however large; a parser that throws fails the claim instead of sending it to a person.
  it('reads a line of two hundred thousand words without overflowing the stack', () => {
    const words = Array.from({ length: 200_000 }, (_, index) => ({
      text: 'x',
      box: { x0: index * 10, y0: 0, x1: index * 10 + 8, y1: 20 },
      confidence: 0.9,
    }));
    const page: OcrPage = {
      width: 2_000_000,
      height: 20,
      confidence: 0.9,
      engine: 'layout',
      lines: [
        {
          text: words.map((word) => word.text).join(' '),
          box: { x0: 0, y0: 0, x1: 2_000_000, y1: 20 },
          confidence: 0.9,
          words,
        },
      ],
    };
    expect(printedRows(page)[0]?.box).toEqual({ x0: 0, y0: 0, x1: 1_999_998, y1: 20 });
    expect(() => parseReceipt(page)).not.toThrow();
  });
});
