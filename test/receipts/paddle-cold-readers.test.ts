import { describe, expect, it } from 'vitest';
import { PaddleReader } from '../../shared/receipts/ocr/paddle-reader.js';
import { fixtureImage } from '../fixtures/receipts/fixture-image.js';

// shared/receipts/ocr/paddle/open-cv.ts: one wait for OpenCV serves every reader of the process.
// Alone in its file so that OpenCV is still compiling when both readers first wait for it.
describe('two PaddleOCR readers started before OpenCV is ready', () => {
  it('both read (a second reader once left the first waiting for ever)', async () => {
    const image = fixtureImage('corner-shop.png');
    const readers = [new PaddleReader(), new PaddleReader()];
    try {
      const pages = await Promise.all(readers.map((reader) => reader.readText(image)));
      for (const page of pages) expect(page.lines.map((line) => line.text)).toContain('TOTAL 9.70');
    } finally {
      await Promise.all(readers.map((reader) => reader.close()));
    }
  });
});
