import { couldBeName, withoutEdgeNoise } from './header.js';
import { plainText } from './labels.js';
import type { Row } from './rows.js';
import { similarity } from './similarity.js';

export interface MerchantReading {
  value: string;
  confidence: number;
}

/** How alike a row must be to a known merchant's name to be taken for it. */
const KNOWN_SIMILARITY = 0.8;
/** A row this much taller than the header's usual row is printed large: the name. */
const PROMINENT = 1.25;

/**
 * The merchant is the header's first prominent name row: the tallest row that could be a name
 * when one stands out, else the first. When the tenant configured its merchants and venues, a
 * row (anywhere near the top) that is nearly one of their names gives that name as configured,
 * with high confidence: the receipt's spelling, misread or not, is not the tenant's.
 */
export function readMerchant(header: Row[], top: Row[], knownMerchants: string[] = []): MerchantReading | undefined {
  const known = matchKnown(top, knownMerchants);
  if (known) return known;
  const names = header.filter((row) => couldBeName(row.text));
  if (!names.length) return undefined;
  const heights = header.map((row) => row.box.y1 - row.box.y0).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)]!;
  const tallest = names.reduce((best, row) => (height(row) > height(best) ? row : best));
  const name = height(tallest) >= usual * PROMINENT ? tallest : names[0]!;
  const value = withoutEdgeNoise(name.text);
  // A name that is not the first row, or not prominent, may be a slogan or a branch's line.
  const placed = name === header[0] || height(name) >= usual * PROMINENT ? 1 : 0.85;
  return { value, confidence: round(name.confidence * placed) };
}

function height(row: Row): number {
  return row.box.y1 - row.box.y0;
}

function matchKnown(rows: Row[], knownMerchants: string[]): MerchantReading | undefined {
  let best: { name: string; similarity: number } | undefined;
  for (const name of knownMerchants) {
    const wanted = squeezed(name);
    if (!wanted) continue;
    for (const row of rows) {
      const similarity = containedSimilarity(squeezed(row.text), wanted);
      if (similarity >= KNOWN_SIMILARITY && (!best || similarity > best.similarity)) best = { name, similarity };
    }
  }
  return best ? { value: best.name, confidence: round(0.8 + 0.18 * best.similarity) } : undefined;
}

/** Letters and digits only, in capitals: "Müller's" and "MULLERS" compare alike. */
function squeezed(text: string): string {
  return plainText(text).replace(/[^A-Z0-9]/g, '');
}

/** How well the wanted name appears within the text: the best window of the text's the same length. */
function containedSimilarity(text: string, wanted: string): number {
  if (text.includes(wanted)) return 1;
  if (text.length < wanted.length * 0.7) return similarity(text, wanted);
  let best = 0;
  for (let start = 0; start + wanted.length <= text.length + 2; start++) {
    best = Math.max(best, similarity(text.slice(start, start + wanted.length), wanted));
  }
  return best;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
