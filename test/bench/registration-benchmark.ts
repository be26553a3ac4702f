import { Queue, Worker } from 'bullmq';
import { bigintArray } from '../../shared/platform/db/bigint-array.js';
import type { EventJob } from '../../shared/events/event-job.js';
import { duplicateIdentity } from '../../shared/events/duplicate-window.js';
import { queueCatalog } from '../../shared/job-catalog.js';
import { createRedis } from '../../shared/platform/redis/redis.js';
import { EVENT_TYPE, purchaseReport, type BenchWorld } from './bench-world.js';
import { startStackProcess } from './child-process.js';
import { firePacedLoad } from './http-load.js';
import { waitFor } from './wait-for.js';

const FILL_CHUNK = 1000;
/**
 * Reports per job in the backlog: the most the ingest figure's 50 connections can put in one job
 * (under that load a job gathered about 17; each is registered the same way, event by event).
 */
const REPORTS_PER_JOB = 50;

export interface DrainFigures {
  eventsPerSecond: number;
  /** The same jobs through a BullMQ worker that does nothing, in events a second: the queue's own ceiling. */
  noOpEventsPerSecond: number;
  peakWorkerRssMb: number;
}

/**
 * How fast one worker process registers a backlog: `count` accepted events are queued while no
 * worker runs, then `main.ts worker events` starts; the rate is the events over the span between
 * the first and the last `registeredAt`, each with its ledger entry committed.
 */
export async function benchmarkDrain(world: BenchWorld, count: number): Promise<DrainFigures> {
  const jobs = await acceptedJobs(world, count);
  const batches: EventJob[][] = [];
  for (let i = 0; i < jobs.length; i += REPORTS_PER_JOB) batches.push(jobs.slice(i, i + REPORTS_PER_JOB));
  for (const batch of batches) {
    // Reported together, as concurrent requests are: one job of reports, claimed as the API claims them.
    const accepted = await Promise.all(
      batch.map((job) =>
        world.context.eventQueue.enqueue(
          job,
          duplicateIdentity(job.tenantId, job.eventTypeName, job.userId!, job.payload),
        ),
      ),
    );
    if (!accepted.every(Boolean)) throw new Error('a drain report was refused as a duplicate');
  }
  const worker = startStackProcess('drain-worker', 'main.ts', ['worker', 'events'], world.env);
  const ids = jobs.map((job) => job.id);
  let peakWorkerRssMb: number;
  try {
    await waitFor(async () => (await registered(world, ids)).events === count, 120_000);
    peakWorkerRssMb = worker.peakRssMb();
  } finally {
    await worker.stop();
  }
  const figures = await registered(world, ids);
  if (figures.ledgerEntries !== count) throw new Error(`${figures.ledgerEntries} ledger entries for ${count} events`);
  return {
    eventsPerSecond: count / figures.spanSeconds,
    noOpEventsPerSecond: await noOpWorkerRate(world, batches),
    peakWorkerRssMb,
  };
}

export interface SteadyFigures {
  offeredPerSecond: number;
  acceptedPerSecond: number;
  registeredPerSecond: number;
  lagP50Ms: number;
  lagP99Ms: number;
  p99Ms: number;
}

/**
 * The most connections the steady load opens: enough that, at a few milliseconds an answer, no
 * request waits for a free one unless the API falls behind.
 */
export const STEADY_CONNECTIONS = 250;

/**
 * End to end at a steady offered load: HTTP at `rate` per second into the API, the worker process
 * registering as it goes. Lag is reportedAt → registeredAt of every event the run reported.
 */
export async function benchmarkSteady(
  world: BenchWorld,
  port: number,
  rate: number,
  seconds: number,
  tag: string,
): Promise<SteadyFigures> {
  const since = new Date();
  const load = await firePacedLoad({
    url: `http://127.0.0.1:${port}/v1/events`,
    headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${world.eventSecret}` },
    body: (n) => purchaseReport(world.members, n, tag),
    ratePerSecond: rate,
    maxConnections: STEADY_CONNECTIONS,
    durationSeconds: seconds,
  });
  if (load.refused || load.errors)
    throw new Error(`POST /v1/events refused ${load.refused} and failed ${load.errors} requests`);
  await waitFor(async () => (await lagSince(world, since)).events >= load.accepted, 120_000);
  const lag = await lagSince(world, since);
  return {
    offeredPerSecond: rate,
    acceptedPerSecond: load.acceptedPerSecond,
    registeredPerSecond: lag.events / lag.spanSeconds,
    lagP50Ms: lag.p50Ms,
    lagP99Ms: lag.p99Ms,
    p99Ms: load.p99Ms,
  };
}

async function acceptedJobs(world: BenchWorld, count: number): Promise<EventJob[]> {
  const reportedAt = new Date().toISOString();
  const jobs: EventJob[] = [];
  for (let n = 0; n < count; n++) {
    const member = world.members[n % world.members.length]!;
    jobs.push({
      id: await world.context.eventIds.allocate(),
      tenantId: world.tenantId,
      eventTypeId: world.eventTypeId,
      eventTypeName: EVENT_TYPE,
      userId: member.id,
      payload: purchaseReport(world.members, n, 'drain').payload,
      reportedAt,
      occurredAt: null,
    });
  }
  return jobs;
}

async function registered(world: BenchWorld, ids: number[]) {
  const [row] = await world.context.orm.em
    .fork()
    .getConnection()
    .execute<{ events: number; ledger_entries: number; span: number }[]>(
      `select count(*)::int as events,
            (select count(*)::int from ledger_entry where event_id = any(?::bigint[])) as ledger_entries,
            extract(epoch from max(registered_at) - min(registered_at))::float as span
       from event where id = any(?::bigint[])`,
      [bigintArray(ids), bigintArray(ids)],
    );
  return { events: row!.events, ledgerEntries: row!.ledger_entries, spanSeconds: row!.span };
}

async function lagSince(world: BenchWorld, since: Date) {
  const [row] = await world.context.orm.em
    .fork()
    .getConnection()
    .execute<{ events: number; p50: number; p99: number; span: number }[]>(
      `select count(*)::int as events,
            percentile_cont(0.5) within group (order by lag) as p50,
            percentile_cont(0.99) within group (order by lag) as p99,
            extract(epoch from max(registered_at) - min(reported_at))::float as span
       from (select registered_at, reported_at, extract(epoch from registered_at - reported_at) * 1000 as lag
               from event where tenant_id = ? and reported_at >= ?) as run`,
      [world.tenantId, since],
    );
  return { events: row!.events, p50Ms: row!.p50, p99Ms: row!.p99, spanSeconds: row!.span };
}

/** The same jobs through a worker of the same concurrency whose handler does nothing, in events a second. */
async function noOpWorkerRate(world: BenchWorld, batches: EventJob[][]): Promise<number> {
  const name = 'bench-noop';
  const prefix = `${world.config.redisPrefix}:{${name}}`;
  const queue = new Queue(name, {
    connection: world.context.redis,
    prefix,
    defaultJobOptions: queueCatalog.events.defaultJobOptions,
  });
  for (let i = 0; i < batches.length; i += FILL_CHUNK) {
    await queue.addBulk(batches.slice(i, i + FILL_CHUNK).map((events) => ({ name: 'register', data: { events } })));
  }
  let completed = 0;
  let first = 0;
  let last = 0;
  const done = new Promise<void>((resolve) => {
    const worker = new Worker(name, async () => {}, {
      connection: createRedis(world.config.redisUrl, 'bench-noop'),
      prefix,
      concurrency: queueCatalog.events.concurrency,
    });
    worker.on('completed', () => {
      last = performance.now();
      if (completed++ === 0) first = last;
      if (completed === batches.length) void worker.close().then(resolve);
    });
  });
  await done;
  await queue.obliterate({ force: true });
  await queue.close();
  return ((batches.length - 1) * REPORTS_PER_JOB) / ((last - first) / 1000);
}
