/**
 * `npm run bench`: the platform's speed and memory on this machine, each figure the median of
 * several runs and set against a baseline measured in the same run (issue 4, Performance).
 * Needs the local PostgreSQL and Redis, like the tests; takes about three minutes.
 */
import { cpus, totalmem } from 'node:os';
import { createBenchWorld } from './bench-world.js';
import { firstLine, startStackProcess, type StackProcess } from './child-process.js';
import { benchmarkIngest, CONNECTIONS, summariseLoad } from './ingest-benchmark.js';
import { benchmarkDrain, benchmarkSteady, STEADY_CONNECTIONS, type SteadyFigures } from './registration-benchmark.js';
import { median, round } from './stats.js';

const ROUNDS = 5;
const SECONDS = 5;
const MEMBERS = 1000;
const DRAIN_EVENTS = 50_000;
const STEADY_RATE = 5000;
const STEADY_ROUNDS = 3;
const STEADY_SECONDS = 10;
// Per-request access logs cost a fleet-sized API real CPU; the bench runs at `warn` unless told.
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';

const print = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  print(`Tally benchmark — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, log level ${LOG_LEVEL}`);
  const world = await createBenchWorld(MEMBERS, LOG_LEVEL);
  const processes: StackProcess[] = [];
  try {
    const api = startStackProcess('api', 'test/bench/ingest-server.ts', [], world.env, true);
    processes.push(api);
    const { port } = await firstLine<{ port: number }>(api);

    print(`\nPOST /v1/events accepted, ${CONNECTIONS} connections, median of ${ROUNDS} runs of ${SECONDS} s (API process alone)`);
    const ingest = await benchmarkIngest(world, port, ROUNDS, SECONDS);
    const ceiling = summariseLoad(ingest.ceiling);
    const events = summariseLoad(ingest.events);
    print(`  ceiling (bare Hono route, same body)  ${round(ceiling.perSecond, 0)}/s  p50 ${ceiling.p50Ms} ms  p99 ${ceiling.p99Ms} ms`);
    print(`  POST /v1/events                       ${round(events.perSecond, 0)}/s  p50 ${events.p50Ms} ms  p99 ${events.p99Ms} ms`);
    print(`  ratio to the ceiling                  ${round(events.perSecond / ceiling.perSecond, 2)}   (target ≥ 0.5, p99 < 20 ms)`);
    print(`  API peak memory                       ${round(api.peakRssMb(), 0)} MB`);

    print(`\nRegistration: a backlog of ${DRAIN_EVENTS} accepted events drained by one worker process`);
    const drain = await benchmarkDrain(world, DRAIN_EVENTS);
    print(`  registered (event + ledger committed) ${round(drain.eventsPerSecond, 0)}/s`);
    print(`  no-op BullMQ worker, same jobs        ${round(drain.noOpJobsPerSecond, 0)}/s`);
    print(`  ratio to the no-op worker             ${round(drain.eventsPerSecond / drain.noOpJobsPerSecond, 2)}`);
    print(`  worker peak memory                    ${round(drain.peakWorkerRssMb, 0)} MB`);

    print(`\nEnd to end at ${STEADY_RATE}/s offered over ${STEADY_CONNECTIONS} connections for ${STEADY_SECONDS} s, API and worker processes, median of ${STEADY_ROUNDS} runs`);
    const worker = startStackProcess('worker', 'main.ts', ['worker', 'events'], world.env);
    processes.push(worker);
    const steady: SteadyFigures[] = [];
    for (let round = 0; round < STEADY_ROUNDS; round++) steady.push(await benchmarkSteady(world, port, STEADY_RATE, STEADY_SECONDS, `steady-${round}`));
    const pick = (field: keyof SteadyFigures) => round(median(steady.map((figures) => figures[field])), 1);
    print(`  accepted                              ${pick('acceptedPerSecond')}/s  (HTTP p99 ${pick('p99Ms')} ms)`);
    print(`  registered                            ${pick('registeredPerSecond')}/s  (target 5000/s sustained)`);
    print(`  lag reportedAt → registeredAt         p50 ${pick('lagP50Ms')} ms  p99 ${pick('lagP99Ms')} ms  (target p99 < 1000 ms)`);
    print(`  ratio registered to offered           ${round(pick('registeredPerSecond') / STEADY_RATE, 2)}`);
    print(`  peak memory: API ${round(api.peakRssMb(), 0)} MB, worker ${round(worker.peakRssMb(), 0)} MB`);
  } finally {
    await Promise.all(processes.map((process) => process.stop()));
    await world.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
