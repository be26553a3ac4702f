import { describe, expect, it } from 'vitest';
import type { ReadCharacter } from '../../shared/receipts/ocr/paddle/recognise-line.js';
import { rowsOf, wordsOfLine } from '../../shared/receipts/ocr/paddle/words-of-line.js';

/** Characters read one pitch apart from `start` (shares of the line), a space where the text has one. */
const read = (text: string, start: number, pitch: number): ReadCharacter[] =>
  [...text].map((character, index) => ({ text: character, at: start + index * pitch, confidence: 0.9 }));

const level: [number, number][] = [
  [0, 10],
  [400, 10],
  [400, 30],
  [0, 30],
];

// shared/receipts/ocr/paddle/words-of-line.ts: each word is boxed where its characters were read, and a wide gap separates words.
describe("PaddleOCR's words within a line", () => {
  it('splits at spaces, and at a gap of several characters where no space was read', () => {
    const characters = [...read('Oat Milk', 0.01, 0.02), ...read('2.50', 0.85, 0.02)];
    const words = wordsOfLine(level, characters);
    expect(words.map((word) => word.text)).toEqual(['Oat', 'Milk', '2.50']);
    // The price's box starts where its first character was read, half a character before it.
    expect(words[2]!.box.x0).toBeCloseTo(400 * (0.85 - 0.01), 5);
    expect(words[2]!.box).toMatchObject({ y0: 10, y1: 30 });
    expect(words[0]!.box.x1).toBeLessThan(words[1]!.box.x0);
  });

  it("follows a tilted line's slope", () => {
    const tilted: [number, number][] = [
      [0, 10],
      [400, 50],
      [400, 70],
      [0, 30],
    ];
    const [first, last] = wordsOfLine(tilted, [...read('AB', 0.05, 0.05), ...read('CD', 0.85, 0.05)]);
    // 0.8 of the way along, 40 px lower at the end: the second word sits about 32 px below the first.
    expect(last!.box.y0 - first!.box.y0).toBeCloseTo(32, 0);
  });
});

describe("PaddleOCR's rows", () => {
  it('makes one line of the lines found apart on one row, left to right, and orders rows top to bottom', () => {
    const word = (text: string, x0: number, y0: number) => ({
      text,
      box: { x0, y0, x1: x0 + 50, y1: y0 + 20 },
      confidence: 0.8,
    });
    const lines = rowsOf([
      [word('9.50', 300, 42)],
      [word('TOTAL', 0, 80)],
      [word('Croque', 0, 40), word('Monsieur', 60, 40)],
    ]);
    expect(lines.map((line) => line.text)).toEqual(['Croque Monsieur 9.50', 'TOTAL']);
    expect(lines[0]!.box).toEqual({ x0: 0, y0: 40, x1: 350, y1: 62 });
    expect(lines[0]!.confidence).toBeCloseTo(0.8, 5);
  });
});
