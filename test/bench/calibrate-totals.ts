/**
 * `npm run ocr:calibrate`: reads the tune split of the generated set and of every real set named
 * (`--set DIR`, converted by `npm run ocr:import`), parses each receipt as the OCR worker does, and
 * for each way a total is confirmed counts the totals read and those right; then writes each
 * way's confidence, the lower bound of its share right, to
 * shared/receipts/ocr/parse/total-confidence.ts (docs/receipts.md#honest-confidence). The same
 * reads give the same file: run with `--cached` to reuse the reads of `npm run ocr:score`.
 *
 *   --set <dir>     a real set's directory (repeatable); the tune split of each is read
 *   --cached        reuse earlier reads of the same image (node_modules/.cache/tally-ocr/)
 *   --check         write nothing: exit 1 if the committed file differs from this calibration
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CALIBRATED_EVIDENCE } from '../../shared/receipts/ocr/parse/consistency.js';
import { GENERATED_SET, labelledSet } from '../fixtures/receipts/receipt-set.js';
import { scoreFields } from '../fixtures/receipts/scoring/score-fields.js';
import { ROOT } from '../support/root.js';
import { cachedRead, readerOver, timedRead } from './ocr-cache.js';
import { OCR_VARIANTS, variantCacheKey } from './ocr-engines.js';
import { readReceipt } from '../../shared/receipts/ocr/read-receipt.js';
import { calibrateTotals, confidenceModule, type TotalObservation } from './total-calibration.js';

const TARGET = join(ROOT, 'shared/receipts/ocr/parse/total-confidence.ts');
const print = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      set: { type: 'string', multiple: true, default: [] },
      cached: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
    },
  });
  const reader = OCR_VARIANTS.paddle!.create();
  const read = values.cached ? cachedRead(variantCacheKey(OCR_VARIANTS.paddle!), timedRead(reader)) : timedRead(reader);
  const observations: TotalObservation[] = [];
  const names: string[] = [];
  try {
    for (const directory of [GENERATED_SET, ...values.set]) {
      const { receipts } = labelledSet(directory, 'tune');
      const name = directory === GENERATED_SET ? 'the generated set' : directory.split('/').filter(Boolean).at(-1)!;
      names.push(`${name} (${receipts.length})`);
      for (const receipt of receipts) {
        const { parsed } = await readReceipt(readerOver(read, reader.looksCloser), readFileSync(receipt.path));
        const evidence = parsed.metadata?.totalEvidence;
        const outcome = scoreFields(receipt.truth, parsed).total?.outcome;
        if (evidence && (outcome === 'right' || outcome === 'wrong'))
          observations.push({ evidence, right: outcome === 'right' });
      }
    }
  } finally {
    await reader.close();
  }
  const figures = calibrateTotals(observations, CALIBRATED_EVIDENCE);
  print(`total confidence by what confirmed it, on the tune splits of ${names.join(', ')}`);
  for (const [evidence, { read: seen, right, confidence }] of Object.entries(figures))
    print(
      `  ${evidence.padEnd(24)} ${String(right).padStart(4)} right of ${String(seen).padStart(4)}  → ${confidence}`,
    );
  const module = confidenceModule(figures, names);
  if (values.check) {
    const same = readFileSync(TARGET, 'utf8') === module;
    print(same ? 'the committed calibration is this one' : `the committed calibration differs: run without --check`);
    return same ? 0 : 1;
  }
  writeFileSync(TARGET, module);
  print(`written to ${TARGET}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `ocr:calibrate failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
