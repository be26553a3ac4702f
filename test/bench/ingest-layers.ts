/**
 * Where POST /v1/events's CPU goes, part by part:
 *
 *   npx tsx test/bench/ingest-layers.ts        (ROUNDS=3 by default, 3 s per route and round)
 *
 * The ingest server (ingest-server.ts --layers) serves the route taken apart into layers, each
 * adding one part to the one before (ingest-layers-routes.ts); two control rows each add a bare
 * wait to the API key's layer instead (the next layer builds on the API key's), and a last line
 * times one Redis round trip alone, from this process. Each layer gets the benchmark's ingest
 * load in turn, round after round, and this prints its rate, the API process's CPU per
 * request (from /proc) and what its part adds to the layer before. The API runs one core flat out
 * under this load, so its CPU per request decides the rate, and it moves less with this shared
 * machine's speed than the rate does.
 */
import { createBenchWorld, type BenchWorld } from './bench-world.js';
import { cpuSeconds, firstLine, startStackProcess } from './child-process.js';
import { fireIngestLoad } from './ingest-benchmark.js';
import { LAYER_ROUTES } from './ingest-layers-routes.js';
import { median, round } from './stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = 3;

const world = await createBenchWorld(1000, 'warn');
const server = startStackProcess('ingest-layers', 'test/bench/ingest-server.ts', ['--layers'], world.env, true);
const figures = new Map(
  LAYER_ROUTES.map(({ path }) => [path, { perSecond: [] as number[], cpuMicroseconds: [] as number[] }]),
);
try {
  const { port } = await firstLine<{ port: number }>(server);
  const pid = server.child.pid!;
  const run = async (path: string, tag: string, seconds: number) => {
    const before = cpuSeconds(pid);
    const load = await fireIngestLoad(world, port, path, tag, seconds);
    if (load.refused || load.errors)
      throw new Error(`${path} refused ${load.refused} and failed ${load.errors} requests`);
    await world.context.queues.events.obliterate({ force: true });
    return { perSecond: load.acceptedPerSecond, cpuMicroseconds: ((cpuSeconds(pid) - before) * 1e6) / load.accepted };
  };
  // Warm-up: JIT, the caches (every member is reported), the id allocator.
  for (const { path } of LAYER_ROUTES) await run(path, 'warm', 2);
  for (let round = 0; round < ROUNDS; round++) {
    for (const { path } of LAYER_ROUTES) {
      const { perSecond, cpuMicroseconds } = await run(path, `${round}`, SECONDS);
      figures.get(path)!.perSecond.push(perSecond);
      figures.get(path)!.cpuMicroseconds.push(cpuMicroseconds);
    }
  }
  const ceiling = median(figures.get(LAYER_ROUTES[0]!.path)!.perSecond);
  let below: number | undefined;
  for (const { path, adds, control } of LAYER_ROUTES) {
    const { perSecond, cpuMicroseconds } = figures.get(path)!;
    const cpu = median(cpuMicroseconds);
    const added = below === undefined ? '' : `  (${cpu >= below ? '+' : '−'}${round(Math.abs(cpu - below))} µs)`;
    process.stdout.write(
      `${path.padEnd(24)} ${String(round(median(perSecond), 0)).padStart(6)}/s  ratio ${round(median(perSecond) / ceiling, 2).toFixed(2)}  ` +
        `API ${round(cpu)} µs per request${added}: ${adds}\n`,
    );
    if (!control) below = cpu;
  }
  process.stdout.write(
    `one Redis round trip (PING) alone, from this process: ${round(await roundTripCpuMicroseconds(world), 1)} µs of CPU\n`,
  );
} finally {
  await server.stop();
  await world.close();
}

/** The client's CPU for one Redis round trip with nothing else in flight, ioredis as the API uses it: the median of 5 runs of 2,000. */
async function roundTripCpuMicroseconds({ context }: BenchWorld): Promise<number> {
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const before = process.cpuUsage();
    for (let ping = 0; ping < 2000; ping++) await context.redis.ping();
    const { user, system } = process.cpuUsage(before);
    runs.push((user + system) / 2000);
  }
  return median(runs);
}
