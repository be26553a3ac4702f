/**
 * POST /v1/events of this checkout against another's, for work on the ingest path:
 *
 *   git worktree add /tmp/tally-before <commit> && ln -s "$PWD/node_modules" /tmp/tally-before/
 *   npx tsx test/bench/compare-ingest.ts /tmp/tally-before
 *
 * This machine's speed changes from minute to minute, by up to half, so two `npm run bench`
 * figures taken apart say little about a change of a few percent. Here both ingest servers run at
 * once on one world, and their runs alternate (the ceiling, then events), so both see the same
 * machine. Besides each run's rate it prints the CPU each process spent per request, read from
 * /proc: the API's figure moves less with the machine than the rate does.
 */
import { join } from 'node:path';
import { createBenchWorld, CEILING_PATH } from './bench-world.js';
import { cpuSeconds, firstLine, startStackProcess, type StackProcess } from './child-process.js';
import { fireIngestLoad } from './ingest-benchmark.js';
import { median, round } from './stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const SECONDS = 4;
const MEMBERS = 1000;

interface Contender {
  name: string;
  server: StackProcess;
  port: number;
  perSecond: Record<string, number[]>;
}

const other = process.argv[2];
if (!other) throw new Error('usage: npx tsx test/bench/compare-ingest.ts <other checkout, its node_modules linked>');
const world = await createBenchWorld(MEMBERS, 'warn');
const redisPid = Number(/process_id:(\d+)/.exec(await world.context.redis.info('server'))?.[1]);
const contenders: Contender[] = [];
try {
  for (const [name, root] of [
    ['this', '.'],
    ['other', other],
  ] as const) {
    const server = startStackProcess(`compare-${name}`, join(root, 'test/bench/ingest-server.ts'), [], world.env, true);
    const { port } = await firstLine<{ port: number }>(server);
    contenders.push({ name, server, port, perSecond: {} });
  }
  const run = async (contender: Contender, path: string, tag: string, seconds: number) => {
    const pid = contender.server.child.pid!;
    const [apiBefore, redisBefore] = [cpuSeconds(pid), cpuSeconds(redisPid)];
    const load = await fireIngestLoad(world, contender.port, path, `${contender.name}-${tag}`, seconds);
    await world.context.queues.events.obliterate({ force: true });
    const requests = load.accepted + load.refused;
    const microseconds = (before: number, now: number) => round(((now - before) * 1e6) / requests, 0);
    process.stdout.write(
      `${contender.name.padEnd(6)} ${path.padEnd(11)} ${round(load.acceptedPerSecond, 0)}/s  p99 ${load.p99Ms} ms  ` +
        `CPU per request: API ${microseconds(apiBefore, cpuSeconds(pid))} µs, Redis ${microseconds(redisBefore, cpuSeconds(redisPid))} µs\n`,
    );
    return load.acceptedPerSecond;
  };

  // Warm-up: JIT, the caches (every member is reported), the id allocator.
  for (const contender of contenders) {
    await run(contender, CEILING_PATH, 'warm', 2);
    await run(contender, '/v1/events', 'warm', 2);
  }
  for (let pass = 0; pass < ROUNDS; pass++) {
    for (const contender of pass % 2 ? [...contenders].reverse() : contenders) {
      for (const path of [CEILING_PATH, '/v1/events'])
        (contender.perSecond[path] ??= []).push(await run(contender, path, `${pass}`, SECONDS));
    }
  }
  for (const { name, perSecond } of contenders) {
    const [ceiling, events] = [median(perSecond[CEILING_PATH]!), median(perSecond['/v1/events']!)];
    process.stdout.write(
      `${name}: POST /v1/events ${round(events, 0)}/s, ceiling ${round(ceiling, 0)}/s, ratio ${round(events / ceiling, 3)}\n`,
    );
  }
} finally {
  await Promise.all(contenders.map((contender) => contender.server.stop()));
  await world.close();
}
