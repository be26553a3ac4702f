/**
 * `npm run ocr:score`: reads a receipt set with one OCR engine, parses each image with the parser
 * the OCR worker runs, and prints per-field accuracy over the receipts labelling each field (whole
 * set, by difficulty, by country), the wrong totals the reviewer's data check would let be decided,
 * line items' precision, recall and F1, the total's calibration, time per receipt and the receipts
 * still wrong (docs/receipts.md#measuring-accuracy).
 *
 *   --split tune|holdout|all   which receipts (default tune; the holdout is scored only to report)
 *   --set <dir>                another set: drawn by generate-set.ts --seed --out, or real receipts
 *                              converted by `npm run ocr:import` (default the committed generated one)
 *   --min-confidence <x>       the review.minConfidence "wrong totals authorized" is counted at
 *                              (default the reviewer's, 0.5)
 *   --engine <name>            which OCR engine (default paddle), or a variant of one from
 *                              ocr-engines.ts ("paddle det 960"), cached apart
 *   --only <text>              only the receipts whose file name contains it
 *   --verbose                  every wrong field, with what is printed and what was read
 *   --cached                   reuse earlier reads of the same image by the engine with the same
 *                              settings, at the same look (node_modules/.cache/tally-ocr/), for
 *                              parser work; times are then old
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { GENERATED_SET, labelledSet } from '../fixtures/receipts/receipt-set.js';
import {
  formatFieldTable,
  formatQuantitiesAndUnitPrices,
  formatTimes,
  formatTotalCalibration,
  formatWrongReceipts,
} from '../fixtures/receipts/scoring/format-report.js';
import { cachedRead, timedRead } from './ocr-cache.js';
import { afterWarmUp, isOcrVariant, OCR_VARIANTS, variantCacheKey } from './ocr-engines.js';
import { DEFAULT_MIN_CONFIDENCE } from '../fixtures/receipts/scoring/score-receipt.js';
import { scoreReceiptSet } from './score-receipt-set.js';
import { round } from './stats.js';

const SPLITS = ['tune', 'holdout', 'all'] as const;

class UsageError extends Error {}

function options() {
  const { values } = parseArgs({
    options: {
      split: { type: 'string', default: 'tune' },
      set: { type: 'string' },
      engine: { type: 'string', default: 'paddle' },
      only: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      cached: { type: 'boolean', default: false },
      'min-confidence': { type: 'string', default: String(DEFAULT_MIN_CONFIDENCE) },
    },
  });
  const minConfidence = Number(values['min-confidence']);
  if (!(minConfidence >= 0 && minConfidence <= 1))
    throw new UsageError(`--min-confidence takes a number from 0 to 1, not "${values['min-confidence']}"`);
  const split = SPLITS.find((name) => name === values.split);
  if (!split) throw new UsageError(`--split takes ${SPLITS.join(', ')}, not "${values.split}"`);
  if (!isOcrVariant(values.engine))
    throw new UsageError(`--engine takes ${Object.keys(OCR_VARIANTS).join(', ')}, not "${values.engine}"`);
  return { ...values, split, engine: values.engine, minConfidence };
}

const print = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const { split, set, engine, only, verbose, cached, minConfidence } = options();
  const { merchantMatch, receipts: inSplit } = labelledSet(
    set ? resolve(set) : GENERATED_SET,
    split === 'all' ? undefined : split,
  );
  const receipts = inSplit.filter((receipt) => only === undefined || receipt.file.includes(only));
  if (!receipts.length)
    throw new UsageError(
      `no receipt of the ${split} split${only === undefined ? '' : ` has "${only}" in its file name`}`,
    );
  const variant = OCR_VARIANTS[engine]!;
  const reader = variant.create();
  let startMs: number | undefined;
  try {
    print(
      `OCR score: ${engine}, ${split} split, ${receipts.length} receipts${set ? ` of ${set}` : ''}${cached ? ', cached reads' : ''}; merchants ${merchantMatch}; wrong totals authorized at review.minConfidence ${minConfidence}`,
    );
    const engineRead = afterWarmUp(reader, timedRead(reader), (ms) => {
      startMs = ms;
    });
    const read = cached ? cachedRead(variantCacheKey(variant), engineRead) : engineRead;
    const progress = (done: number) => {
      if (process.stderr.isTTY) process.stderr.write(`\r  ${done}/${receipts.length}`);
    };
    const scored = await scoreReceiptSet(receipts, read, reader.looksCloser, { merchantMatch, onScored: progress });
    if (process.stderr.isTTY) process.stderr.write('\r');
    print();
    for (const line of formatFieldTable(scored, minConfidence)) print(line);
    print(formatQuantitiesAndUnitPrices(scored));
    print();
    for (const line of formatTotalCalibration(scored)) print(line);
    print();
    print(`${formatTimes(scored)}${cached ? ' (reads from the cache: the times of the reads that filled it)' : ''}`);
    if (startMs !== undefined) print(`engine started by a first read, not counted: ${round(startMs, 0)} ms`);
    print();
    for (const line of formatWrongReceipts(scored, verbose)) print(line);
  } finally {
    await reader.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`ocr:score: ${(error as Error).message}\n`);
      process.exit(2);
    }
    process.stderr.write(
      `ocr:score failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
