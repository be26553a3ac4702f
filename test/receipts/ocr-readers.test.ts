import { afterAll, describe, expect, it } from 'vitest';
import type { TextReader } from '../../shared/receipts/ocr/ocr-page.js';
import { PaddleReader } from '../../shared/receipts/ocr/paddle-reader.js';
import { startTesseract, TESSERACT_PREPARATION, TesseractReader } from '../../shared/receipts/ocr/tesseract-reader.js';
import { fixtureImage } from '../fixtures/receipts/fixture-image.js';

const image = fixtureImage('corner-shop.png');

// shared/receipts/ocr/ocr-page.ts: "lines of words, each with the box it was found in … and a
// confidence from 0 to 1"; a line's words "joined by single spaces make the line's text".
describe.each([
  ['PaddleOCR', () => new PaddleReader()],
  ['tesseract.js', () => new TesseractReader()],
])('%s reads a receipt into an OCR page', (_engine, start: () => TextReader) => {
  const reader = start();
  afterAll(() => reader.close());

  it('gives lines of words whose texts make the line, boxed inside the page, with confidences from 0 to 1', async () => {
    const page = await reader.readText(image);
    expect(page.lines.map((line) => line.text)).toContain('TOTAL 9.70');
    const inside = (box: { x0: number; y0: number; x1: number; y1: number }) =>
      box.x0 >= 0 &&
      box.y0 >= 0 &&
      box.x0 <= box.x1 &&
      box.y0 <= box.y1 &&
      box.x1 <= page.width &&
      box.y1 <= page.height;
    const within = (confidence: number) => confidence >= 0 && confidence <= 1;
    expect(within(page.confidence)).toBe(true);
    for (const line of page.lines) {
      expect(line.words.map((word) => word.text).join(' ')).toBe(line.text);
      expect(line.words.every((word) => word.text.length > 0 && !/\s/.test(word.text))).toBe(true);
      expect(inside(line.box) && line.words.every((word) => inside(word.box))).toBe(true);
      expect(within(line.confidence) && line.words.every((word) => within(word.confidence))).toBe(true);
    }
  });

  it('boxes each word where it is printed: the total amount right of its label, on the same row', async () => {
    const page = await reader.readText(image);
    const total = page.lines.find((line) => line.text === 'TOTAL 9.70')!;
    const [label, amount] = total.words;
    expect(label!.box.x1).toBeLessThan(amount!.box.x0);
    expect(amount!.box.x1).toBeGreaterThan(page.width / 2);
  });

  it('reads several images asked for at once, each its own', async () => {
    const pages = await Promise.all([reader.readText(image), reader.readText(image)]);
    expect(pages[0]!.lines.map((line) => line.text)).toEqual(pages[1]!.lines.map((line) => line.text));
  });
});

// Like PaddleOCR's (paddle-reader.test.ts): a worker whose first start failed (a language file
// briefly unreadable) must not answer every later claim with that failure.
describe('tesseract.js', () => {
  it('starts its recognizer again on the read after a start that failed', async () => {
    let attempts = 0;
    const failingOnce = () => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('language data unreadable')) : startTesseract();
    };
    const reader = new TesseractReader(TESSERACT_PREPARATION, failingOnce);
    try {
      await expect(reader.readText(image)).rejects.toThrow('language data unreadable');
      const page = await reader.readText(image);
      expect(page.lines.map((line) => line.text)).toContain('TOTAL 9.70');
      expect(attempts).toBe(2);
    } finally {
      await reader.close();
    }
  });
});
