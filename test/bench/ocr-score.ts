/**
 * `npm run ocr:score`: reads the generated receipt set with one OCR engine, parses each image with
 * the parser the OCR worker runs, and prints per-field accuracy (whole set, by difficulty, by
 * country), line items' precision, recall and F1, time per receipt and the receipts still wrong
 * (docs/receipts.md#measuring-accuracy).
 *
 *   --split tune|holdout|all   which receipts (default tune; the holdout is scored only to report)
 *   --set <dir>                another set drawn by generate-set.ts --seed --out (default the committed one)
 *   --engine paddle|tesseract  which OCR engine (default paddle)
 *   --only <text>              only the receipts whose file name contains it
 *   --verbose                  every wrong field, with what is printed and what was read
 *   --cached                   reuse earlier reads of the same image by the same engine
 *                              (node_modules/.cache/tally-ocr/), for parser work; times are then old
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { receiptSet } from '../fixtures/receipts/receipt-set.js';
import {
  formatFieldTable,
  formatQuantitiesAndUnitPrices,
  formatTimes,
  formatWrongReceipts,
} from '../fixtures/receipts/scoring/format-report.js';
import { cachedRead, timedRead } from './ocr-cache.js';
import { afterWarmUp, isOcrEngineName, OCR_ENGINES } from './ocr-engines.js';
import { parserUnderScore } from './parser-under-score.js';
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
    },
  });
  const split = SPLITS.find((name) => name === values.split);
  if (!split) throw new UsageError(`--split takes ${SPLITS.join(', ')}, not "${values.split}"`);
  if (!isOcrEngineName(values.engine))
    throw new UsageError(`--engine takes ${Object.keys(OCR_ENGINES).join(', ')}, not "${values.engine}"`);
  return { ...values, split, engine: values.engine };
}

const print = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const { split, set, engine, only, verbose, cached } = options();
  const receipts = receiptSet(split === 'all' ? undefined : split, set && resolve(set)).filter(
    (receipt) => only === undefined || receipt.file.includes(only),
  );
  if (!receipts.length)
    throw new UsageError(
      `no receipt of the ${split} split${only === undefined ? '' : ` has "${only}" in its file name`}`,
    );
  const reader = OCR_ENGINES[engine]();
  let startMs: number | undefined;
  try {
    print(
      `OCR score: ${engine}, ${split} split, ${receipts.length} receipts${set ? ` drawn in ${set}` : ''}${cached ? ', cached reads' : ''}`,
    );
    const engineRead = afterWarmUp(reader, timedRead(reader), (ms) => {
      startMs = ms;
    });
    const read = cached ? cachedRead(engine, engineRead) : engineRead;
    const progress = (done: number) => {
      if (process.stderr.isTTY) process.stderr.write(`\r  ${done}/${receipts.length}`);
    };
    const scored = await scoreReceiptSet(receipts, read, parserUnderScore, progress);
    if (process.stderr.isTTY) process.stderr.write('\r');
    print();
    for (const line of formatFieldTable(scored)) print(line);
    print(formatQuantitiesAndUnitPrices(scored));
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
