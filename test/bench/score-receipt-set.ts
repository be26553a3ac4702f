import { readFileSync } from 'node:fs';
import type { LabelledReceipt, MerchantMatch } from '../fixtures/receipts/receipt-set.js';
import { scoreReceipt } from '../fixtures/receipts/scoring/score-receipt.js';
import type { ScoredReceipt } from '../fixtures/receipts/scoring/summarise-scores.js';
import { readReceipt } from '../../shared/receipts/ocr/read-receipt.js';
import type { ReadImage } from './ocr-cache.js';

/**
 * Reads and parses each receipt in turn, one at a time as one OCR worker would (readReceipt, its
 * closer second read included), and scores the parse against what its set labels, comparing
 * merchants by the set's rule.
 */
export async function scoreReceiptSet(
  receipts: (LabelledReceipt & { path: string })[],
  read: ReadImage,
  {
    merchantMatch = 'equal',
    onScored = () => {},
  }: { merchantMatch?: MerchantMatch; onScored?: (done: number) => void } = {},
): Promise<ScoredReceipt[]> {
  const scored: ScoredReceipt[] = [];
  for (const receipt of receipts) {
    const { parsed, readMs, parseMs } = await timedReading(read, readFileSync(receipt.path));
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

/** readReceipt through `read`: the reads' own times (a cached read keeps the time that filled it), and the rest as the parse's. */
async function timedReading(read: ReadImage, image: Buffer) {
  let readMs = 0;
  const started = performance.now();
  let reading = 0;
  const { parsed } = await readReceipt(
    {
      readText: async (bytes, options) => {
        const begun = performance.now();
        const timed = await read(bytes, options);
        readMs += timed.readMs;
        reading += performance.now() - begun;
        return timed.page;
      },
    },
    image,
  );
  return { parsed, readMs, parseMs: performance.now() - started - reading };
}
