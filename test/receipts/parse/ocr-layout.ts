import type { OcrLine, OcrPage } from '../../../shared/receipts/ocr/ocr-page.js';

export const CHARACTER_WIDTH = 10;
export const ROW_HEIGHT = 24;

export interface LayoutOptions {
  /** Every word's confidence, unless a segment says its own with a "{0.4}" suffix. */
  confidence?: number;
  /** Pixels down per pixel across: a photo taken slightly askew. */
  slope?: number;
}

/**
 * Lays out a receipt's text as an OCR engine would return it from a monospace print: one character
 * per column, one row per text line. Runs of two or more spaces split a row into separate OCR
 * lines at the same height, as PaddleOCR returns a price printed far from its description. A row
 * starting with "#" is printed large (a header's name); a segment ending "{0.4}" was read with
 * that confidence.
 */
export function pageOf(text: string, { confidence = 0.95, slope = 0 }: LayoutOptions = {}): OcrPage {
  const lines: OcrLine[] = [];
  let top = 0;
  for (const raw of text.replace(/^\n+|\s+$/g, '').split('\n')) {
    const tall = raw.trimStart().startsWith('#');
    const rowText = tall ? raw.replace('#', ' ') : raw;
    const height = tall ? 2 * ROW_HEIGHT : ROW_HEIGHT;
    for (const segment of rowText.matchAll(/\S+(?: \S+)*/g)) {
      const own = /\{([\d.]+)\}$/.exec(segment[0]);
      const words = [...segment[0].replace(/\{[\d.]+\}$/, '').matchAll(/\S+/g)].map((word) => {
        const x0 = (segment.index + word.index) * CHARACTER_WIDTH * (tall ? 1.6 : 1);
        const x1 = x0 + word[0].length * CHARACTER_WIDTH * (tall ? 1.6 : 1);
        const y0 = top + slope * x0;
        return {
          text: word[0],
          box: { x0, y0, x1, y1: y0 + height - 4 },
          confidence: own ? Number(own[1]) : confidence,
        };
      });
      lines.push({
        text: words.map((word) => word.text).join(' '),
        box: {
          x0: words[0]!.box.x0,
          y0: Math.min(...words.map((word) => word.box.y0)),
          x1: words.at(-1)!.box.x1,
          y1: Math.max(...words.map((word) => word.box.y1)),
        },
        confidence: Math.min(...words.map((word) => word.confidence)),
        words,
      });
    }
    top += height;
  }
  return {
    width: 60 * CHARACTER_WIDTH,
    height: top,
    lines: lines.sort((a, b) => a.box.y0 - b.box.y0),
    confidence,
    engine: 'layout',
  };
}
