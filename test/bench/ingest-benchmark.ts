import type { BenchWorld } from './bench-world.js';
import { CEILING_PATH, purchaseReport } from './bench-world.js';
import { fireLoad, type LoadFigures } from './http-load.js';
import { median } from './stats.js';

export interface IngestFigures {
  ceiling: LoadFigures[];
  events: LoadFigures[];
}

export const CONNECTIONS = 50;

/**
 * POST /v1/events against the ceiling on the same server, alternating run by run so that both
 * see the same machine. The API process runs alone (no workers), so the figure is the API's: the
 * events queue is emptied between runs to keep Redis the same size for every run.
 */
export async function benchmarkIngest(
  world: BenchWorld,
  port: number,
  rounds: number,
  seconds: number,
): Promise<IngestFigures> {
  const run = (path: string, tag: string, durationSeconds: number) =>
    fireIngestLoad(world, port, path, tag, durationSeconds);

  // Warm-up: JIT, connection pools, the API's caches, the id allocator.
  await run(CEILING_PATH, 'warm-ceiling', 2);
  await run('/v1/events', 'warm-events', 2);
  await world.context.queues.events.obliterate({ force: true });

  const figures: IngestFigures = { ceiling: [], events: [] };
  for (let round = 0; round < rounds; round++) {
    figures.ceiling.push(await run(CEILING_PATH, `ceiling-${round}`, seconds));
    const events = await run('/v1/events', `ingest-${round}`, seconds);
    if (events.refused || events.errors)
      throw new Error(`POST /v1/events refused ${events.refused} and failed ${events.errors} requests`);
    figures.events.push(events);
    await world.context.queues.events.obliterate({ force: true });
  }
  return figures;
}

/** The ingest load: till reports (tagged `tag`, so no run repeats another's) on CONNECTIONS connections to `path`. */
export function fireIngestLoad(
  world: BenchWorld,
  port: number,
  path: string,
  tag: string,
  durationSeconds: number,
): Promise<LoadFigures> {
  return fireLoad({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${world.eventSecret}` },
    body: (n) => purchaseReport(world.members, n, tag),
    connections: CONNECTIONS,
    durationSeconds,
  });
}

export function summariseLoad(runs: LoadFigures[]) {
  return {
    perSecond: median(runs.map((run) => run.acceptedPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
  };
}
