import { readFileSync } from 'node:fs';
import type { GeneratedReceipt } from '../fixtures/receipts/receipt-set.js';
import { scoreReceipt } from '../fixtures/receipts/scoring/score-receipt.js';
import type { ScoredReceipt } from '../fixtures/receipts/scoring/summarise-scores.js';
import type { ReadImage } from './ocr-cache.js';
import type { ParseReceipt } from './parser-under-score.js';

/** Reads and parses each receipt in turn, one at a time as one OCR worker would, and scores the parse. */
export async function scoreReceiptSet(
  receipts: (GeneratedReceipt & { path: string })[],
  read: ReadImage,
  parse: ParseReceipt,
  onScored: (done: number) => void = () => {},
): Promise<ScoredReceipt[]> {
  const scored: ScoredReceipt[] = [];
  for (const receipt of receipts) {
    const { page, readMs } = await read(readFileSync(receipt.path));
    const started = performance.now();
    const parsed = parse(page);
    const parseMs = performance.now() - started;
    scored.push({
      file: receipt.file,
      country: receipt.country,
      difficulty: receipt.difficulty,
      readMs,
      parseMs,
      score: scoreReceipt(receipt.truth, parsed),
    });
    onScored(scored.length);
  }
  return scored;
}
