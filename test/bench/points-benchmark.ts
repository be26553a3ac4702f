import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { expirePoints } from '../../shared/ledger/expire-points.js';
import { createTenant } from '../../shared/tenant-admin/tenant-service.js';
import { CEILING_PATH, type BenchWorld } from './bench-world.js';
import { fireIngestLoad } from './ingest-benchmark.js';
import type { LoadFigures } from './http-load.js';
import { round } from './stats.js';

/** The points settings the reads run under: every part of the wallet and the predictions has work to do. */
export const POINTS_CONFIGURATION = {
  pointsExpiry: { afterDays: 365 },
  pointsCaps: { earn: { max: 1_000_000, period: 'MONTH' }, spend: { max: 1_000_000, period: 'WEEK' } },
  tiers: [
    { id: 'bronze', name: 'Bronze', threshold: 0 },
    { id: 'silver', name: 'Silver', threshold: 20_000 },
    { id: 'gold', name: 'Gold', threshold: 80_000 },
  ],
  tierWindowDays: 365,
};

export interface ReadFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * A member with `entries` ledger entries spread over the last year, as years of earning leave
 * them: each an EARN of 10 points with its lot and its day, written in three statements rather
 * than through `earn()` one by one, which would take minutes and measure nothing of the reads.
 */
export async function seedLongHistory(world: BenchWorld, userId: string, entries: number): Promise<void> {
  const knex = world.context.orm.em.fork().getKnex();
  await knex.transaction(async (trx) => {
    await trx.raw(
      `insert into ledger_entry (id, tenant_id, user_id, kind, points, created_at, expires_at)
       select gen_random_uuid(), ?, ?, 'EARN', 10, now() - (g % 365) * interval '1 day' - g * interval '1 second',
              now() - (g % 365) * interval '1 day' - g * interval '1 second' + interval '365 days'
         from generate_series(1, ?) g`,
      [world.tenantId, userId, entries],
    );
    await trx.raw(
      `insert into points_lot (entry_id, tenant_id, user_id, expires_at, remaining)
       select id, tenant_id, user_id, expires_at, points from ledger_entry where user_id = ? and expires_at is not null`,
      [userId],
    );
    await trx.raw(
      `insert into points_day (user_id, day, tenant_id, earned, spent)
       select user_id, (created_at at time zone 'UTC')::date, tenant_id, sum(points), 0 from ledger_entry
        where user_id = ? and kind = 'EARN' group by user_id, (created_at at time zone 'UTC')::date, tenant_id
       on conflict (user_id, day) do update set earned = points_day.earned + excluded.earned`,
      [userId],
    );
    await trx.raw(
      `insert into wallet (user_id, tenant_id, points, lifetime_earn, updated_at)
       select ?, ?, sum(points), sum(points), now() from ledger_entry where user_id = ?
       on conflict (user_id) do update set points = excluded.points, lifetime_earn = excluded.lifetime_earn`,
      [userId, world.tenantId, userId],
    );
  });
}

/**
 * `GET path` one request after another on one keep-alive connection, for `seconds`: the latency
 * of each read alone, as a member's app makes it.
 */
export async function timeReads(
  world: BenchWorld,
  port: number,
  path: string,
  token: string,
  seconds: number,
): Promise<ReadFigures> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
  const latencies: number[] = [];
  try {
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      const started = performance.now();
      const response = await pool.request({
        path,
        method: 'GET',
        headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${token}` },
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}`);
      latencies.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]!, 2);
  return { requests: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99) };
}

/** The ingest ceiling of this moment of the run, the figure each points figure is printed beside. */
export function pointsCeiling(world: BenchWorld, port: number, tag: string, seconds: number): Promise<LoadFigures> {
  return fireIngestLoad(world, port, CEILING_PATH, tag, seconds);
}

/**
 * A tenant of its own with `members` members, each with `perMember` EARN entries whose lots are
 * all due: the backlog an expiry sweep finds after a long outage, or on the day a year of
 * earnings expires. Written set-based, like seedLongHistory.
 */
export async function seedDueLots(
  world: BenchWorld,
  members: number,
  perMember: number,
): Promise<{ tenantId: string; entries: number; points: number }> {
  const tenant = await createTenant(world.context.orm.em.fork(), world.context.payloadSchemas, {
    name: 'Bench Expiry',
    slug: `bench-expiry-${process.pid}`,
    configuration: { pointsExpiry: { afterDays: 30 } },
  });
  const knex = world.context.orm.em.fork().getKnex();
  await knex.transaction(async (trx) => {
    await trx.raw(
      `insert into member (id, tenant_id, account_number, auth_identifier, is_restricted, profile, linked_venues, created_at, updated_at)
       select gen_random_uuid(), ?, 100000000 + g, 'expiring-' || g, false, '{}'::jsonb, '[]'::jsonb, now(), now()
         from generate_series(1, ?) g`,
      [tenant.id, members],
    );
    await trx.raw(
      `insert into ledger_entry (id, tenant_id, user_id, kind, points, created_at, expires_at)
       select gen_random_uuid(), m.tenant_id, m.id, 'EARN', 10, now() - interval '40 days', now() - interval '10 days'
         from member m cross join generate_series(1, ?) g where m.tenant_id = ?`,
      [perMember, tenant.id],
    );
    await trx.raw(
      `insert into points_lot (entry_id, tenant_id, user_id, expires_at, remaining)
       select id, tenant_id, user_id, expires_at, points from ledger_entry where tenant_id = ?`,
      [tenant.id],
    );
    await trx.raw(
      `insert into wallet (user_id, tenant_id, points, lifetime_earn, updated_at)
       select user_id, tenant_id, sum(points), sum(points), now() from ledger_entry where tenant_id = ? group by user_id, tenant_id`,
      [tenant.id],
    );
  });
  await world.upkeep();
  return { tenantId: tenant.id, entries: members * perMember, points: members * perMember * 10 };
}

export interface PointsFigures {
  ceiling: LoadFigures;
  wallet: ReadFigures;
  predictions: ReadFigures;
  bulk: { lines: number; seconds: number; failed: number };
  sweep: { entries: number; seconds: number; batches: number };
}

/**
 * Issue 21's figures, in one run: the reads of a member with `historyEntries` ledger entries on
 * the API process, a bulk adjustment of `bulkLines` lines through the API and the worker process,
 * and the expiry sweep over `sweepMembers` × `sweepPerMember` due earnings, run in this process as
 * the worker would run it.
 */
export async function benchmarkPoints(
  world: BenchWorld,
  port: number,
  options: {
    readSeconds: number;
    historyEntries: number;
    bulkLines: number;
    sweepMembers: number;
    sweepPerMember: number;
    sweepBatch: number;
  },
): Promise<PointsFigures> {
  const admin = await world.adminToken(['admin:tenant', 'admin:users', 'read:users']);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status >= 300)
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
  await call('PATCH', '/v1/tenant', { configuration: POINTS_CONFIGURATION });
  const reader = world.members[0]!;
  await seedLongHistory(world, reader.id, options.historyEntries);
  await world.upkeep();

  // Warm-up: JIT, the connection pool, the tenant and member caches.
  await timeReads(world, port, `/v1/users/${reader.id}/wallet`, admin, 1);
  await timeReads(world, port, `/v1/users/${reader.id}/wallet/predictions`, admin, 1);
  const ceiling = await pointsCeiling(world, port, 'points-ceiling', options.readSeconds);
  const wallet = await timeReads(world, port, `/v1/users/${reader.id}/wallet`, admin, options.readSeconds);
  const predictions = await timeReads(
    world,
    port,
    `/v1/users/${reader.id}/wallet/predictions`,
    admin,
    options.readSeconds,
  );

  const lines = Array.from({ length: options.bulkLines }, (_, n) => ({
    member: world.members[n % world.members.length]!.id,
    // Each member's every tenth line takes back a little of what the nine before it gave.
    points: Math.floor(n / world.members.length) % 10 === 9 ? -3 : 5,
    reason: `bench line ${n + 1}`,
  }));
  const bulkStarted = performance.now();
  const { jobId } = (await call('POST', '/v1/points-adjustments/bulk', { lines })) as { jobId: string };
  let job = await call('GET', `/v1/jobs/${jobId}`);
  while (job.status !== 'completed' && job.status !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await call('GET', `/v1/jobs/${jobId}`);
  }
  const bulkSeconds = (performance.now() - bulkStarted) / 1000;
  if (job.status !== 'completed') throw new Error(`the bulk adjustment ended ${String(job.status)}`);

  await seedDueLots(world, options.sweepMembers, options.sweepPerMember);
  const sweepStarted = performance.now();
  const swept = await expirePoints(world.context.orm.em.getKnex(), {
    now: new Date(),
    batchSize: options.sweepBatch,
  });
  const sweepSeconds = (performance.now() - sweepStarted) / 1000;
  return {
    ceiling,
    wallet,
    predictions,
    bulk: { lines: options.bulkLines, seconds: bulkSeconds, failed: Number(job.failed) },
    sweep: { entries: swept.entries, seconds: sweepSeconds, batches: swept.batches },
  };
}
