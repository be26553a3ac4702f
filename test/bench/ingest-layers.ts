/**
 * Where POST /v1/events's CPU goes, part by part:
 *
 *   npx tsx test/bench/ingest-layers.ts        (ROUNDS=3 by default, 3 s per route and round)
 *
 * The ingest server (ingest-server.ts --layers) serves the route taken apart into layers, each
 * adding one part to the one before (ingest-layers-routes.ts); two control rows after the API
 * key's layer add a bare wait instead, and the rate limit's row is set against the second of
 * them, a Redis round trip shared by a turn's requests. Each layer gets the benchmark's
 * ingest load in turn, round after round, and this prints its rate, the API process's CPU per
 * request (from /proc) and what its part adds to the layer before. The API runs one core flat out
 * under this load, so its CPU per request decides the rate, and it moves less with this shared
 * machine's speed than the rate does.
 */
import { createBenchWorld } from './bench-world.js';
import { cpuSeconds, firstLine, startStackProcess } from './child-process.js';
import { fireIngestLoad } from './ingest-benchmark.js';
import { LAYER_ROUTES } from './ingest-layers-routes.js';
import { median, round } from './stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = 3;

const world = await createBenchWorld(1000, 'warn');
const server = startStackProcess('ingest-layers', 'test/bench/ingest-server.ts', ['--layers'], world.env, true);
const figures = new Map(LAYER_ROUTES.map(({ path }) => [path, { perSecond: [] as number[], cpuMicroseconds: [] as number[] }]));
try {
  const { port } = await firstLine<{ port: number }>(server);
  const pid = server.child.pid!;
  const run = async (path: string, tag: string, seconds: number) => {
    const before = cpuSeconds(pid);
    const load = await fireIngestLoad(world, port, path, tag, seconds);
    if (load.refused || load.errors) throw new Error(`${path} refused ${load.refused} and failed ${load.errors} requests`);
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
  for (const { path, adds } of LAYER_ROUTES) {
    const { perSecond, cpuMicroseconds } = figures.get(path)!;
    const cpu = median(cpuMicroseconds);
    const added = below === undefined ? '' : `  (${cpu >= below ? '+' : '−'}${round(Math.abs(cpu - below))} µs)`;
    process.stdout.write(
      `${path.padEnd(24)} ${String(round(median(perSecond), 0)).padStart(6)}/s  ratio ${round(median(perSecond) / ceiling, 2).toFixed(2)}  ` +
        `API ${round(cpu)} µs per request${added}: ${adds}\n`,
    );
    below = cpu;
  }
} finally {
  await server.stop();
  await world.close();
}
