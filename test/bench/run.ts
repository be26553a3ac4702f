/**
 * `npm run bench`: the platform's speed and memory on this machine, each figure the median of
 * several runs and set against a baseline measured in the same run (issues 4 and 5, Performance).
 * Needs the local PostgreSQL and Redis, like the tests; takes about five minutes.
 * BENCH_ONLY=events,rules,receipts,ocr,rewards,points,members runs some sections only.
 * BENCH_REAL_SETS=dir,… adds to the OCR section the holdouts of real receipt sets converted by
 * `npm run ocr:import` (docs/receipts.md#real-receipts), which the repository does not hold.
 */
import { cpus, totalmem } from 'node:os';
import { createBenchWorld, type BenchWorld } from './bench-world.js';
import { firstLine, startStackProcess, type StackProcess } from './child-process.js';
import { benchmarkIngest, CONNECTIONS, summariseLoad } from './ingest-benchmark.js';
import { benchmarkPreparsed, type PreparsedFigures } from './receipts-benchmark.js';
import { benchmarkImageToDecision, benchmarkOcrAccuracy } from './ocr-benchmark.js';
import { OCR_ENGINES, type OcrEngineName } from './ocr-engines.js';
import { benchmarkDrain, benchmarkSteady, STEADY_CONNECTIONS, type SteadyFigures } from './registration-benchmark.js';
import { benchmarkRules } from './rules-benchmark.js';
import { benchmarkRewards, BUYERS, POOL_SIZE } from './rewards-benchmark.js';
import { benchmarkPoints } from './points-benchmark.js';
import { benchmarkMembers, REGISTERING_CONNECTIONS } from './members-benchmark.js';
import type { LoadFigures } from './http-load.js';
import { median, round } from './stats.js';
import { waitFor } from './wait-for.js';
import { labelledSet, receiptSet, type LabelledReceipt } from '../fixtures/receipts/receipt-set.js';
import {
  formatFieldTable,
  formatQuantitiesAndUnitPrices,
  formatTimes,
  formatWrongReceipts,
} from '../fixtures/receipts/scoring/format-report.js';

const ROUNDS = 5;
const SECONDS = 5;
const MEMBERS = 1000;
const DRAIN_EVENTS = 50_000;
const STEADY_RATE = 5000;
const STEADY_ROUNDS = 3;
const STEADY_SECONDS = 10;
const STEADY_WARM_UP_SECONDS = 5;
const RULE_ROUNDS = 5;
const RULE_SECONDS = 3;
const CLAIM_RATE = 200;
const CLAIM_ROUNDS = 3;
const CLAIM_SECONDS = 10;
const CLAIM_WARM_UP_SECONDS = 15;
const OCR_CLAIMS = 30;
const REWARD_ROUNDS = 3;
const REWARD_SECONDS = 5;
const VALIDATE_RATE = 200;
const VALIDATE_SECONDS = 5;
// Per-request access logs cost a fleet-sized API real CPU; the bench runs at `warn` unless told.
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const POINTS_READ_SECONDS = 5;
const MEMBERS_ROUNDS = 3;
const MEMBERS_SECONDS = 5;
const HISTORY_ENTRIES = 10_000;
const BULK_LINES = 100_000;
const SWEEP_MEMBERS = 100_000;
const SWEEP_PER_MEMBER = 10;
const SWEEP_BATCH = 1000;
const SECTIONS = (process.env.BENCH_ONLY ?? 'events,rules,receipts,ocr,rewards,points,members').split(',');

const print = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  print(
    `Tally benchmark — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, log level ${LOG_LEVEL}`,
  );
  if (SECTIONS.includes('rules')) await rulesSection();
  if (!['events', 'receipts', 'ocr', 'rewards', 'points', 'members'].some((section) => SECTIONS.includes(section)))
    return;
  const world = await createBenchWorld(MEMBERS, LOG_LEVEL);
  const processes: StackProcess[] = [];
  try {
    const api = startStackProcess('api', 'test/bench/ingest-server.ts', [], world.env, true);
    processes.push(api);
    const { port } = await firstLine<{ port: number }>(api);
    if (SECTIONS.includes('events')) await eventsSection(world, api, port, processes);
    if (SECTIONS.includes('receipts')) await receiptsSection(world, port, processes);
    if (SECTIONS.includes('ocr')) await ocrSection(world, port, processes);
    if (SECTIONS.includes('rewards')) await rewardsSection(world, api, port);
    if (SECTIONS.includes('points')) await pointsSection(world, api, port, processes);
    // Last: it leaves a referral campaign active and consent types behind.
    if (SECTIONS.includes('members')) await membersSection(world, api, port);
  } finally {
    await Promise.all(processes.map((process) => process.stop()));
    await world.close();
  }
}

async function eventsSection(
  world: BenchWorld,
  api: StackProcess,
  port: number,
  processes: StackProcess[],
): Promise<void> {
  print(
    `\nPOST /v1/events accepted, ${CONNECTIONS} connections, median of ${ROUNDS} runs of ${SECONDS} s (API process alone)`,
  );
  const ingest = await benchmarkIngest(world, port, ROUNDS, SECONDS);
  const ceiling = summariseLoad(ingest.ceiling);
  const events = summariseLoad(ingest.events);
  print(
    `  ceiling (bare Hono route, same body)  ${round(ceiling.perSecond, 0)}/s  p50 ${ceiling.p50Ms} ms  p99 ${ceiling.p99Ms} ms`,
  );
  print(
    `  POST /v1/events                       ${round(events.perSecond, 0)}/s  p50 ${events.p50Ms} ms  p99 ${events.p99Ms} ms`,
  );
  print(
    `  ratio to the ceiling                  ${round(events.perSecond / ceiling.perSecond, 2)}   (target ≥ 0.5, p99 < 20 ms)`,
  );
  print(`  API peak memory                       ${round(api.peakRssMb(), 0)} MB`);

  print(`\nRegistration: a backlog of ${DRAIN_EVENTS} accepted events drained by one worker process`);
  await world.upkeep();
  const drain = await benchmarkDrain(world, DRAIN_EVENTS);
  print(`  registered (event + ledger committed) ${round(drain.eventsPerSecond, 0)}/s`);
  print(`  no-op BullMQ worker, same jobs        ${round(drain.noOpEventsPerSecond, 0)}/s`);
  print(`  ratio to the no-op worker             ${round(drain.eventsPerSecond / drain.noOpEventsPerSecond, 2)}`);
  print(`  worker peak memory                    ${round(drain.peakWorkerRssMb, 0)} MB`);

  print(
    `\nEnd to end at ${STEADY_RATE}/s offered evenly (at most ${STEADY_CONNECTIONS} connections) for ${STEADY_SECONDS} s, API and worker processes, median of ${STEADY_ROUNDS} runs after ${STEADY_WARM_UP_SECONDS} s of warm-up`,
  );
  const worker = startStackProcess('worker', 'main.ts', ['worker', 'events'], world.env);
  processes.push(worker);
  const steady: SteadyFigures[] = [];
  let workerPeakMb: number;
  try {
    // The worker starts cold: its JIT, pools and caches take the first seconds, while the API
    // queues behind its connection cap. Shown on its own line; the runs measure the steady state.
    // The load waits until BullMQ lists the worker (its connection is up and waiting for jobs): a
    // process still booting is not what a rolling deploy, which starts new workers beside running
    // ones, shows.
    await world.upkeep();
    await waitFor(async () => (await world.context.queues.events.getWorkersCount()) > 0, 60_000);
    const warmUp = await benchmarkSteady(world, port, STEADY_RATE, STEADY_WARM_UP_SECONDS, 'steady-warm-up');
    print(
      `  warm-up, worker just listed           HTTP p99 ${round(warmUp.p99Ms, 1)} ms, lag p99 ${round(warmUp.lagP99Ms, 1)} ms`,
    );
    for (let round = 0; round < STEADY_ROUNDS; round++) {
      await world.upkeep();
      steady.push(await benchmarkSteady(world, port, STEADY_RATE, STEADY_SECONDS, `steady-${round}`));
    }
    workerPeakMb = worker.peakRssMb();
  } finally {
    await worker.stop();
  }
  const pick = (field: keyof SteadyFigures) => round(median(steady.map((figures) => figures[field])), 1);
  print(
    `  accepted                              ${pick('acceptedPerSecond')}/s  (HTTP p99 ${pick('p99Ms')} ms; per run ${steady.map((figures) => round(figures.p99Ms, 1)).join(', ')} ms)`,
  );
  print(`  registered                            ${pick('registeredPerSecond')}/s  (target 5000/s sustained)`);
  print(
    `  lag reportedAt → registeredAt         p50 ${pick('lagP50Ms')} ms  p99 ${pick('lagP99Ms')} ms  (target p99 < 1000 ms)`,
  );
  print(`  ratio registered to offered           ${round(pick('registeredPerSecond') / STEADY_RATE, 2)}`);
  print(`  peak memory: API ${round(api.peakRssMb(), 0)} MB, worker ${round(workerPeakMb, 0)} MB`);
}

async function rewardsSection(world: BenchWorld, api: StackProcess, port: number): Promise<void> {
  print(
    `\nPurchases: ${BUYERS} members buying one reward (pool of ${POOL_SIZE} codes) at once, median of ${REWARD_ROUNDS} runs of ${REWARD_SECONDS} s (API process alone)`,
  );
  const rewards = await benchmarkRewards(world, port, {
    rounds: REWARD_ROUNDS,
    seconds: REWARD_SECONDS,
    validateRate: VALIDATE_RATE,
    validateSeconds: VALIDATE_SECONDS,
  });
  const ceiling = summariseLoad(rewards.ceiling);
  const purchases = summariseLoad(rewards.purchases);
  print(
    `  ceiling (bare Hono route, ${CONNECTIONS} connections)  ${round(ceiling.perSecond, 0)}/s  p50 ${ceiling.p50Ms} ms  p99 ${ceiling.p99Ms} ms`,
  );
  print(
    `  POST /v1/purchases                    ${round(purchases.perSecond, 0)}/s  p50 ${purchases.p50Ms} ms  p99 ${purchases.p99Ms} ms  (target ≥ 500/s, p99 < 200 ms)`,
  );
  print(`  ratio to the ceiling                  ${round(purchases.perSecond / ceiling.perSecond, 3)}`);
  print(`  refused per run                       ${rewards.purchases.map((run) => run.refused).join(', ')}`);
  const validations = summariseLoad(rewards.validations);
  print(
    `\nPOST /v1/commands/validate_voucher at ${VALIDATE_RATE}/s offered evenly, median of ${rewards.validations.length} runs of ${VALIDATE_SECONDS} s, each code once`,
  );
  print(
    `  validated                             ${round(validations.perSecond, 0)}/s  p50 ${validations.p50Ms} ms  p99 ${validations.p99Ms} ms  (target p99 < 50 ms)`,
  );
  print(`  refused per run                       ${rewards.validations.map((run) => run.refused).join(', ')}`);
  print(`  API peak memory                       ${round(api.peakRssMb(), 0)} MB`);
}

async function membersSection(world: BenchWorld, api: StackProcess, port: number): Promise<void> {
  print(
    `\nMember registrations (issue 23): ${REGISTERING_CONNECTIONS} connections, median of ${MEMBERS_ROUNDS} runs of ${MEMBERS_SECONDS} s each (API process alone)`,
  );
  const members = await benchmarkMembers(world, port, { rounds: MEMBERS_ROUNDS, seconds: MEMBERS_SECONDS });
  const line = (label: string, runs: LoadFigures[]) => {
    const figures = summariseLoad(runs);
    return `  ${label.padEnd(38)}${round(figures.perSecond, 0)}/s  p50 ${figures.p50Ms} ms  p99 ${figures.p99Ms} ms`;
  };
  print(line(`ceiling (bare route, ${CONNECTIONS} conn.)`, members.ceiling));
  print(line('POST /v1/users', members.plain));
  print(line('  with two consents, ?locale=fr-FR', members.withConsents));
  print(line('  referred by an invite code', members.referred));
  const plain = summariseLoad(members.plain).perSecond;
  print(
    `  ratio to plain registrations          consents ${round(summariseLoad(members.withConsents).perSecond / plain, 2)}, referred ${round(summariseLoad(members.referred).perSecond / plain, 2)}`,
  );
  print(`  API peak memory                       ${round(api.peakRssMb(), 0)} MB`);
}

async function pointsSection(
  world: BenchWorld,
  api: StackProcess,
  port: number,
  processes: StackProcess[],
): Promise<void> {
  const worker = startStackProcess('points-worker', 'main.ts', ['worker', 'points-adjustments'], world.env);
  processes.push(worker);
  print(`\nPoints over time (issue 21): one run each, beside the ingest ceiling of the same moment`);
  const points = await benchmarkPoints(world, port, {
    readSeconds: POINTS_READ_SECONDS,
    historyEntries: HISTORY_ENTRIES,
    bulkLines: BULK_LINES,
    sweepMembers: SWEEP_MEMBERS,
    sweepPerMember: SWEEP_PER_MEMBER,
    sweepBatch: SWEEP_BATCH,
  });
  const ceiling = summariseLoad([points.ceiling]);
  print(
    `  ceiling (bare Hono route, ${CONNECTIONS} connections)  ${round(ceiling.perSecond, 0)}/s  p50 ${ceiling.p50Ms} ms  p99 ${ceiling.p99Ms} ms`,
  );
  for (const [name, read] of [
    ['GET wallet (tier, vouchers)', points.wallet],
    ['GET wallet/predictions', points.predictions],
  ] as const)
    print(
      `  ${name.padEnd(37)} p50 ${read.p50Ms} ms  p99 ${read.p99Ms} ms  over ${read.requests} sequential reads, member with ${HISTORY_ENTRIES.toLocaleString('en')} entries  (target p99 < 20 ms)`,
    );
  const bulkRate = points.bulk.lines / points.bulk.seconds;
  print(
    `  bulk adjustment, ${BULK_LINES.toLocaleString('en')} lines          ${round(bulkRate, 0)} lines/s  (${round(points.bulk.seconds, 1)} s from POST to completed, ${points.bulk.failed} failed)  ratio to the ceiling ${round(bulkRate / ceiling.perSecond, 2)}`,
  );
  const sweepRate = points.sweep.entries / points.sweep.seconds;
  print(
    `  expiry sweep, ${(SWEEP_MEMBERS * SWEEP_PER_MEMBER).toLocaleString('en')} due earnings of ${SWEEP_MEMBERS.toLocaleString('en')} members  ${round(sweepRate, 0)} entries/s  (${round(points.sweep.seconds, 1)} s, ${points.sweep.batches} batches of ${SWEEP_BATCH})  ratio to the ceiling ${round(sweepRate / ceiling.perSecond, 2)}`,
  );
  print(`  API peak memory                       ${round(api.peakRssMb(), 0)} MB`);
  print(`  points-adjustments worker peak memory ${round(worker.peakRssMb(), 0)} MB`);
}

async function rulesSection(): Promise<void> {
  print(
    `\nTransactions rule engine: 15 rules (10 CUSTOM, 5 BASKET, 5 priorities) on a 20-line receipt, one core, median of ${RULE_ROUNDS} runs of ${RULE_SECONDS} s`,
  );
  const rules = await benchmarkRules(RULE_ROUNDS, RULE_SECONDS);
  print(`  json-rules-engine directly, same conditions  ${round(rules.directPerSecond, 0)} evaluations/s`);
  print(`  the service's run                           ${round(rules.servicePerSecond, 0)} evaluations/s`);
  print(
    `  ratio to the direct run                     ${round(rules.servicePerSecond / rules.directPerSecond, 2)}   (target ≥ 0.8)`,
  );
}

async function receiptsSection(world: BenchWorld, port: number, processes: StackProcess[]): Promise<void> {
  const worker = startStackProcess('receipts-worker', 'main.ts', ['worker', 'reviews', 'events'], world.env);
  processes.push(worker);
  try {
    print(
      `\nPreparsed claims end to end at ${CLAIM_RATE}/s offered evenly for ${CLAIM_SECONDS} s, API and worker processes, median of ${CLAIM_ROUNDS} runs after ${CLAIM_WARM_UP_SECONDS} s of warm-up`,
    );
    // Warm-up, as for the ingest figure: JIT, connection pools, prepared statements, the member cache.
    await world.upkeep();
    await benchmarkPreparsed(world, port, CLAIM_RATE, CLAIM_WARM_UP_SECONDS, 'claims-warm-up');
    const claims: PreparsedFigures[] = [];
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      await world.upkeep();
      claims.push(await benchmarkPreparsed(world, port, CLAIM_RATE, CLAIM_SECONDS, `claims-${round}`));
    }
    const pick = (field: keyof PreparsedFigures) => round(median(claims.map((figures) => figures[field])), 1);
    print(`  decided                               ${pick('decidedPerSecond')}/s of ${CLAIM_RATE}/s offered`);
    print(`  claim → automated review              p50 ${pick('decisionP50Ms')} ms  p99 ${pick('decisionP99Ms')} ms`);
    print(
      `  POST /v1/receipts with the decision   p50 ${pick('httpP50Ms')} ms  p99 ${pick('httpP99Ms')} ms  (target p99 < 200 ms)`,
    );
    print(`  worker peak memory (reviews, events)  ${round(worker.peakRssMb(), 0)} MB`);
  } finally {
    await worker.stop();
  }
}

/** Issue 22: reading receipts, scored on the generated set's holdout, and a claim from image to decision. */
async function ocrSection(world: BenchWorld, port: number, processes: StackProcess[]): Promise<void> {
  const holdout = receiptSet('holdout');
  print(
    `\nOCR on the holdout split: ${holdout.length} generated receipts never tuned on, each read and parsed in turn by one reader in this process (docs/receipts.md#measuring-accuracy)`,
  );
  print(
    '  targets: on normal receipts total and date ≥ 95%, merchant ≥ 90%, currency ≥ 95%, items F1 ≥ 0.85; on hard receipts no wrong total',
  );
  for (const engine of Object.keys(OCR_ENGINES) as OcrEngineName[]) {
    const { scored, startMs } = await benchmarkOcrAccuracy(engine, holdout);
    print(`\n  ${engine}, engine started by a first read (not counted) in ${round(startMs, 0)} ms`);
    for (const line of formatFieldTable(scored)) print(`    ${line}`);
    print(`    ${formatQuantitiesAndUnitPrices(scored)}`);
    print(`    ${formatTimes(scored)}`);
    for (const line of formatWrongReceipts(scored, false)) print(`    ${line}`);
  }

  const claims = holdout.slice(0, OCR_CLAIMS);
  await imageToDecision(world, port, processes, `${claims.length} holdout receipts`, receiptSet('tune')[0]!, claims);

  for (const directory of (process.env.BENCH_REAL_SETS ?? '').split(',').filter(Boolean)) {
    const { merchantMatch, receipts } = labelledSet(directory, 'holdout');
    print(
      `\nOCR on the holdout of ${directory}: ${receipts.length} real receipts (docs/performance.md#real-receipts-issue-32)`,
    );
    print('  targets: total and date ≥ 95%, merchant ≥ 90%, currency ≥ 95%, no wrong total authorized');
    const { scored, startMs } = await benchmarkOcrAccuracy('paddle', receipts, merchantMatch);
    print(`\n  paddle, engine started by a first read (not counted) in ${round(startMs, 0)} ms`);
    for (const line of formatFieldTable(scored)) print(`    ${line}`);
    print(`    ${formatTimes(scored)}`);
    const real = receipts.slice(0, OCR_CLAIMS);
    await imageToDecision(world, port, processes, `${real.length} of them`, receipts.at(-1)!, real);
  }
}

/**
 * Default-mode claims of `claims` from image to decision, one after another through the API, with
 * one OCR worker process and one reviews + events worker process; `warmUp`, claimed first, starts
 * the worker's engine (a running worker loaded its models long before) and is not counted.
 */
async function imageToDecision(
  world: BenchWorld,
  port: number,
  processes: StackProcess[],
  label: string,
  warmUp: LabelledReceipt & { path: string },
  claims: (LabelledReceipt & { path: string })[],
): Promise<void> {
  print(
    `\nDefault-mode claims, image to decision: ${label} one after another through the API; one OCR worker process (workers/ocr.ts), one reviews + events worker process`,
  );
  const ocrWorker = startStackProcess('ocr-worker', 'main.ts', ['worker', 'ocr'], world.env);
  const reviewer = startStackProcess('reviews-worker', 'main.ts', ['worker', 'reviews', 'events'], world.env);
  processes.push(ocrWorker, reviewer);
  try {
    const queues = world.context.queues;
    await waitFor(
      async () => (await queues.ocr.getWorkersCount()) > 0 && (await queues.reviews.getWorkersCount()) > 0,
      60_000,
    );
    const { firstMs, durations } = await benchmarkImageToDecision(world, port, warmUp, claims);
    const seconds = (ms: number) => round(ms / 1000, 2);
    print(`  first claim, the worker's engine starting  ${seconds(firstMs)} s (not counted)`);
    print(
      `  median ${seconds(median(durations))} s, worst ${seconds(Math.max(...durations))} s  (target median < 3 s, worst < 6 s)`,
    );
    print(`  OCR worker peak memory                    ${round(ocrWorker.peakRssMb(), 0)} MB`);
  } finally {
    await ocrWorker.stop();
    await reviewer.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
