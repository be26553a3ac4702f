import { roundConfidence } from './confidence.js';
import { lettersAndDigits, plainText, withLettersForDigits } from './fold-text.js';
import { couldBeName, isAddressOrContact, REGISTRATION_NUMBER, withoutEdgeNoise } from './header.js';
import type { Row } from './rows.js';
import { similarity } from './similarity.js';
import { withTradeWordsRestored } from './trade-words.js';

export interface MerchantReading {
  value: string;
  confidence: number;
  /** The company's legal name, when the receipt prints it beside another, the name it trades under. */
  legalName?: { value: string; confidence: number };
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

/**
 * A legal name: a name with its company's legal form, printed after it in Malaysia, Singapore and
 * English-speaking countries ("SDN BHD", "S/B", "PTE LTD", "LTD"), before it in Latvia ("SIA
 * \"KONGS\"", "AS"), where the seller's VAT number often follows on the same row. A typographer's
 * quote closes the name before a space ("SIA \"KONGS’ PVN …") and is an apostrophe inside it
 * ("SIA \"ELVI’S\"").
 */
const LEGAL_FORM_AFTER =
  /^.*?\b(?:SDN\.? ?BHD|BHD|S\/B|PTE\.? ?LTD|CO\.? ?,? ?LTD|LTD|LIMITED|PLC|LLC|INC|GMBH|SARL)\b\.?/i;
const LEGAL_FORM_BEFORE = /^\W*(?:SIA|AS|A\/S)\b\s*[*"'‘“”„«]?(?:[^"'‘’“”„»]|’(?![\s"]|$))+[*"'’“”»]?/i;

interface PrintedName {
  row: Row;
  prominent: boolean;
}

/**
 * The merchant is the header's first prominent name row: the tallest row that could be a name
 * when one stands out, else the first. When the tenant configured its merchants and venues, a
 * header row that is nearly one of their names, whole, gives that name as configured, with high
 * confidence (the receipt's spelling, misread or not, is not the tenant's), unless the header
 * prints another name large: that is the receipt's own word for who sold. A legal name (a name
 * with its company's legal form) is the merchant only when no trading name is printed above it or
 * larger; when one is, or a known name is read off another row, the legal name is kept beside it.
 */
export function readMerchant(header: Row[], knownMerchants: string[] = []): MerchantReading | undefined {
  const legal = legalName(header);
  const printed = printedName(header.filter((row) => row !== legal?.row));
  const known = knownName(header, knownMerchants);
  if (known && (!printed?.prominent || known.row === printed.row))
    return {
      value: known.name,
      confidence: roundConfidence(0.8 + 0.18 * known.similarity),
      // Issue 32: "the parse keeps both when both are printed"; a known name read off the legal name's own row is that name.
      ...(legal && legal.row !== known.row ? { legalName: legalReading(legal) } : {}),
    };
  // The trading name is printed above the legal name, or larger; a name row under it is a branch's or a slogan.
  const trading = printed && (!legal || printed.prominent || printed.row.index < legal.row.index) ? printed : undefined;
  if (!trading)
    return (
      legal && {
        value: cleanName(legal.value),
        confidence: roundConfidence(legal.row.confidence * (legal.row === header[0] ? 1 : 0.85)),
      }
    );
  // A name that is not the first row, or not prominent, may be a slogan or a branch's line.
  const placed = trading.row === header[0] || trading.prominent ? 1 : 0.85;
  return {
    value: cleanName(withoutEdgeNoise(withLegalFormRestored(trading.row.text))),
    confidence: roundConfidence(trading.row.confidence * placed),
    ...(legal ? { legalName: legalReading(legal) } : {}),
  };
}

function withoutRegistrationNumber(name: string): string {
  return name
    .replace(REGISTRATION_NUMBER, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * A name as printed, less what the engine misread in it (letters read as digits inside its words,
 * a letter of a trade word) and what is no part of it (a registration number).
 */
function cleanName(name: string): string {
  return withTradeWordsRestored(withoutRegistrationNumber(withLettersForDigits(name)));
}

/**
 * Legal forms as the engine misreads them on a faint print ("SDN 8HD", "SON BHD", "SDN BHC", "LTO"):
 * their letters are a fixed vocabulary, so a near miss is restored before the name is looked for.
 */
const MISREAD_SDN_BHD = /\bS[DO0]N\.?\s?[B83E]H[DCIO0]\b|\bSDN[B83E]H[DCIO0]\b/g;
/**
 * After PTE or CO, or ending the name (before its registration or tax number): "SIA \"LTO
 * SERVISS\"" is a name.
 */
const MISREAD_LTD = /(?<=\b(?:PTE|CO)\.? ?)LT[O0]\b|\bLT[O0]\b(?=\W*$|\W*[\d(]|\s+(?:GST|VAT|REG)\b)/g;

function withLegalFormRestored(text: string): string {
  return text
    .replace(MISREAD_SDN_BHD, (form) => (/^SDN\.?\s?BHD$/.test(form) ? form : 'SDN BHD'))
    .replace(MISREAD_LTD, 'LTD');
}

/** A legal name kept beside the merchant: its legal form says what it is, so only its reading is in doubt. */
function legalReading(legal: { row: Row; value: string }): { value: string; confidence: number } {
  return { value: cleanName(legal.value), confidence: roundConfidence(legal.row.confidence) };
}

/** The first header row that prints a legal name, and that name without what follows it on the row. */
function legalName(header: Row[]): { row: Row; value: string } | undefined {
  for (const row of header) {
    const text = withLegalFormRestored(row.text);
    const form = LEGAL_FORM_AFTER.exec(text) ?? LEGAL_FORM_BEFORE.exec(text);
    // The legal form bounds the name, and a quote closes it: only stray marks before it are dropped.
    const value = form && couldBeName(form[0]) ? form[0].replace(/^[^\p{L}\p{N}]+/u, '').trim() : '';
    if (value) return { row, value };
  }
  return undefined;
}

/**
 * The name row: the tallest that could be a name when one stands out, else the first. A name is
 * printed above the address, so rows under it (a branch, a document title, an item's description
 * printed large) are looked at only when none above it could be the name.
 */
function printedName(header: Row[]): PrintedName | undefined {
  const address = header.findIndex((row) => isAddressOrContact(row.text));
  const aboveAddress = header.slice(0, address < 0 ? undefined : address).filter((row) => couldBeName(row.text));
  const names = aboveAddress.length ? aboveAddress : header.filter((row) => couldBeName(row.text));
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
