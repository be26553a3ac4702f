import type { ParsedClaim } from '../parsed-claim.js';
import type { OcrPage, TextReader } from './ocr-page.js';
import { CALIBRATED_EVIDENCE } from './parse/consistency.js';
import { parseReceipt, type ParseHints } from './parse/parse-receipt.js';

/** A receipt read and parsed: the page kept as the claim's OCR read, and the fields it gave. */
export interface ReceiptReading {
  page: OcrPage;
  parsed: ParsedClaim;
}

/**
 * Reads a receipt image and parses it; when the first read does not add up (no total its own
 * arithmetic confirms, or no date) and the engine has a closer look, reads it again more closely
 * (ReadOptions.closer) and keeps the closer reading only if it stands better. A receipt that adds
 * up at the first look costs one read; a faint or small-printed one pays for a second, the only
 * kind that gains from it (docs/receipts.md#the-engine).
 */
export async function readReceipt(
  reader: Pick<TextReader, 'readText' | 'looksCloser'>,
  image: Buffer,
  hints: ParseHints = {},
): Promise<ReceiptReading> {
  const first = await readAndParse(reader, image, hints, false);
  if (!reader.looksCloser || standing(first.parsed) === ADDS_UP) return first;
  const closer = await readAndParse(reader, image, hints, true);
  return standing(closer.parsed) > standing(first.parsed) ? closer : first;
}

async function readAndParse(
  reader: Pick<TextReader, 'readText'>,
  image: Buffer,
  hints: ParseHints,
  closer: boolean,
): Promise<ReceiptReading> {
  const page = await reader.readText(image, { closer });
  return { page, parsed: parseReceipt(page, hints) };
}

/**
 * What a parse's fields count for: a total the receipt's arithmetic confirms most, one its amounts
 * agree on without their labels half as much (a closer look may read the labels), a date least.
 */
const WEIGHT = { confirmedTotal: 3, agreedTotal: 1.5, date: 1 };
/** A confirmed total and a date: the two fields without which the review sends the claim to a person. */
const ADDS_UP = WEIGHT.confirmedTotal + WEIGHT.date;

/** How far a parse gets, by WEIGHT. */
function standing(parsed: ParsedClaim): number {
  const evidence = parsed.metadata?.totalEvidence;
  const confirmed = evidence !== undefined && (CALIBRATED_EVIDENCE as readonly string[]).includes(evidence);
  const total = !confirmed ? 0 : evidence === 'agreed without labels' ? WEIGHT.agreedTotal : WEIGHT.confirmedTotal;
  return total + (parsed.fields.serviceDate ? WEIGHT.date : 0);
}
