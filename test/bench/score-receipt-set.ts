import { readFileSync } from 'node:fs';
import type { LabelledReceipt, MerchantMatch } from '../fixtures/receipts/receipt-set.js';
import { scoreReceipt } from '../fixtures/receipts/scoring/score-receipt.js';
import type { ScoredReceipt } from '../fixtures/receipts/scoring/summarise-scores.js';
import { readReceipt } from '../../shared/receipts/ocr/read-receipt.js';
import { readerOver, type ReadImage } from './ocr-cache.js';

/**
 * Reads and parses each receipt in turn, one at a time as one OCR worker would (readReceipt, its
 * closer second read included), and scores the parse against what its set labels, comparing
 * merchants by the set's rule.
 */
export async function scoreReceiptSet(
  receipts: (LabelledReceipt & { path: string })[],
  read: ReadImage,
  looksCloser: boolean,
  {
    merchantMatch = 'equal',
    onScored = () => {},
  }: { merchantMatch?: MerchantMatch; onScored?: (done: number) => void } = {},
): Promise<ScoredReceipt[]> {
  const scored: ScoredReceipt[] = [];
  for (const receipt of receipts) {
    const reader = readerOver(read, looksCloser);
    const started = performance.now();
    const { parsed } = await readReceipt(reader, readFileSync(receipt.path));
    const { readMs } = reader;
    const parseMs = performance.now() - started - reader.waitedMs;
    scored.push({
      file: receipt.file,
      country: receipt.country,
      ...(receipt.difficulty && { difficulty: receipt.difficulty }),
      readMs,
      parseMs,
      score: scoreReceipt(receipt.truth, parsed, merchantMatch),
    });
    onScored(scored.length);
  }
  return scored;
}
