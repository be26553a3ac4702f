import { roundConfidence } from './confidence.js';
import { lettersAndDigits, plainText } from './fold-text.js';
import { couldBeName, withoutEdgeNoise } from './header.js';
import type { Row } from './rows.js';
import { similarity } from './similarity.js';

export interface MerchantReading {
  value: string;
  confidence: number;
}

/**
 * How alike a header row must be to a known merchant's name, whole, to be taken for it: a letter
 * or two misread in a long name ("MILLER DROGERIE"), never a name inside a longer one ("EMERALD"
 * holds "ALD", "Sparkling" holds "Spar"): a receipt from a merchant the tenant does not accept must
 * not pass its INVALID_MERCHANT check by a word that happens to contain an accepted one.
 */
const KNOWN_SIMILARITY = 0.85;
/**
 * A row holding a known name and little else is that name, with specks read as letters beside it
 * ("Bistro Lumiere i BR"): the name must be this much of the row.
 */
const KNOWN_SHARE_OF_ROW = 0.75;
/** A row this much taller than the header's usual row is printed large: the name. */
const PROMINENT = 1.25;
/** A greeting printed before the name on its row: "Willkommen bei ALDI" names ALDI. */
const GREETING = /^(?:WELCOME(?: TO)?|WILLKOMMEN(?: BEI| IM| IN)?|BIENVENUE(?: CHEZ| A| AU)?)\s+/;

interface PrintedName {
  row: Row;
  prominent: boolean;
}

/**
 * The merchant is the header's first prominent name row: the tallest row that could be a name
 * when one stands out, else the first. When the tenant configured its merchants and venues, a
 * header row that is nearly one of their names, whole, gives that name as configured, with high
 * confidence (the receipt's spelling, misread or not, is not the tenant's), unless the header
 * prints another name large: that is the receipt's own word for who sold.
 */
export function readMerchant(header: Row[], knownMerchants: string[] = []): MerchantReading | undefined {
  const printed = printedName(header);
  const known = knownName(header, knownMerchants);
  if (known && (!printed?.prominent || known.row === printed.row))
    return { value: known.name, confidence: roundConfidence(0.8 + 0.18 * known.similarity) };
  if (!printed) return undefined;
  // A name that is not the first row, or not prominent, may be a slogan or a branch's line.
  const placed = printed.row === header[0] || printed.prominent ? 1 : 0.85;
  return { value: withoutEdgeNoise(printed.row.text), confidence: roundConfidence(printed.row.confidence * placed) };
}

function printedName(header: Row[]): PrintedName | undefined {
  const names = header.filter((row) => couldBeName(row.text));
  if (!names.length) return undefined;
  const heights = header.map(height).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)]!;
  const tallest = names.reduce((best, row) => (height(row) > height(best) ? row : best));
  return height(tallest) >= usual * PROMINENT
    ? { row: tallest, prominent: true }
    : { row: names[0]!, prominent: false };
}

function height(row: Row): number {
  return row.box.y1 - row.box.y0;
}

/** The known name a header row is nearly, whole (its greeting aside): the most alike, the first of the list on a tie. */
function knownName(
  header: Row[],
  knownMerchants: string[],
): { name: string; row: Row; similarity: number } | undefined {
  let best: { name: string; row: Row; similarity: number } | undefined;
  for (const name of knownMerchants) {
    const wanted = lettersAndDigits(name);
    if (!wanted) continue;
    for (const row of header) {
      const printed = lettersAndDigits(plainText(row.text).replace(GREETING, ''));
      const mostlyTheName = printed.includes(wanted) && wanted.length >= KNOWN_SHARE_OF_ROW * printed.length;
      const alike = mostlyTheName ? 1 : similarity(printed, wanted);
      if (alike >= KNOWN_SIMILARITY && (!best || alike > best.similarity)) best = { name, row, similarity: alike };
    }
  }
  return best;
}
