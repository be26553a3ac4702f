/**
 * `npx tsx test/bench/ocr-engine-comparison.ts [fixtures|tune] [variant,…]`: each OCR engine and image
 * preparation read the same receipts, scored by the key tokens they recover (ocr-key-tokens.ts,
 * no parser involved) and timed per receipt; each variant in its own process, so its peak memory
 * is its own. Never the holdout: that split is scored once, at the end, by the receipt scorer.
 * Figures and the choices they made are in docs/performance.md#ocr.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../support/root.js';
import { BENCH_SETS, benchReceipts, type BenchReceipt, type BenchSet } from './ocr-bench-receipts.js';
import { scoreTokens } from './ocr-key-tokens.js';
import { OCR_VARIANTS as VARIANTS } from './ocr-engines.js';
import { median, percentile, round } from './stats.js';

interface VariantFigures {
  variant: string;
  receipts: number;
  found: number;
  characters: number;
  byKind: Record<string, number>;
  medianMs: number;
  /** CPU time of the whole process per receipt, all threads: on a busy machine wall time swells, this far less. */
  medianCpuMs: number;
  p95Ms: number;
  maxMs: number;
  firstReadMs: number;
  peakRssMb: number;
}

/** One variant over the receipts, in this process. The first read (models and data loading) is timed apart. */
async function measure(variant: string, receipts: BenchReceipt[]): Promise<VariantFigures> {
  const reader = VARIANTS[variant]!.create();
  const started = performance.now();
  await reader.readText(await receipts[0]!.image());
  const firstReadMs = performance.now() - started;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const scores = [];
  const kinds: Record<string, { found: number; of: number }> = {};
  for (const receipt of receipts) {
    const image = await receipt.image();
    const cpuBefore = process.cpuUsage();
    const before = performance.now();
    const page = await reader.readText(image);
    times.push(performance.now() - before);
    const cpu = process.cpuUsage(cpuBefore);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
    const text = page.lines.map((line) => line.text).join('\n');
    scores.push(scoreTokens(text, receipt.tokens));
    for (const token of receipt.tokens) {
      const kind = (kinds[token.kind] ??= { found: 0, of: 0 });
      kind.of += 1;
      kind.found += scoreTokens(text, [token]).found;
    }
  }
  await reader.close();
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    variant,
    receipts: receipts.length,
    found: mean(scores.map((score) => score.found)),
    characters: mean(scores.map((score) => score.characters)),
    byKind: Object.fromEntries(Object.entries(kinds).map(([kind, { found, of }]) => [kind, found / of])),
    medianMs: median(times),
    medianCpuMs: median(cpuTimes),
    p95Ms: percentile(times, 0.95),
    maxMs: Math.max(...times),
    firstReadMs,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function printTable(set: string, rows: VariantFigures[]): void {
  const kinds = [...new Set(rows.flatMap((row) => Object.keys(row.byKind)))];
  process.stdout.write(
    `OCR engines on ${set} (${rows[0]?.receipts} receipts), ${cpus().length} × ${cpus()[0]?.model}, ${new Date().toISOString()}\n`,
  );
  const header = [
    'variant',
    'tokens found %',
    'char acc %',
    ...kinds.map((kind) => `${kind} %`),
    'median ms',
    'median CPU ms',
    'p95 ms',
    'max ms',
    'first ms',
    'peak RSS MB',
  ];
  const lines = rows.map((row) => [
    row.variant,
    round(row.found * 100),
    round(row.characters * 100),
    ...kinds.map((kind) => round((row.byKind[kind] ?? 0) * 100)),
    Math.round(row.medianMs),
    Math.round(row.medianCpuMs),
    Math.round(row.p95Ms),
    Math.round(row.maxMs),
    Math.round(row.firstReadMs),
    Math.round(row.peakRssMb),
  ]);
  process.stdout.write(`| ${header.join(' | ')} |\n|${header.map(() => ' --- |').join('')}\n`);
  for (const line of lines) process.stdout.write(`| ${line.join(' | ')} |\n`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--one') {
    const [, set, variant] = args as [string, BenchSet, string];
    process.stdout.write(JSON.stringify(await measure(variant, benchReceipts(set))));
    return;
  }
  const set = args[0] ?? 'fixtures';
  if (!(BENCH_SETS as readonly string[]).includes(set)) throw new Error(`sets: ${BENCH_SETS.join(', ')}`);
  const variants = args[1]?.split(',') ?? Object.keys(VARIANTS);
  const rows: VariantFigures[] = [];
  for (const variant of variants) {
    if (!VARIANTS[variant]) throw new Error(`no variant "${variant}": ${Object.keys(VARIANTS).join(', ')}`);
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--one', set, variant],
      {
        cwd: ROOT,
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      },
    );
    // The tail only: OpenCV prints its whole WebAssembly build when a process it is loaded in fails.
    if (run.status !== 0) throw new Error(`${variant}: ${run.stderr.slice(-2000)}`);
    rows.push(JSON.parse(run.stdout) as VariantFigures);
    process.stderr.write(`${variant} done\n`);
  }
  printTable(set, rows);
}

await main();
