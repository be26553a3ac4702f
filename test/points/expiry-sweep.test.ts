import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXPIRY_LOCK_KEY, expireDueLots, expirePoints } from '../../shared/ledger/expire-points.js';
import { earn, openEarns, reverse } from '../../shared/ledger/ledger.js';
import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { adjust, spend } from '../../shared/ledger/spend-and-adjust.js';
import type { TenantSettings } from '../../shared/tenants/tenant-settings.js';
import { schedulePointsExpiry } from '../../workers/points-expiry.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, type Harness, queryOne, registerMember, type TestTenant } from '../support/harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { metricValue } from '../support/metric-samples.js';
import { finished, spawnEntry } from '../support/run-process.js';

let harness: Harness;
const clock = new ManualClock();
let nextEventId = 9_700_000;

beforeAll(async () => {
  // The worker's time is the test's: it sweeps what is due when the test has moved the clock past it.
  clock.advance(Date.now());
  harness = await createHarness({ clock });
});
afterAll(() => harness.close());

const EXPIRY = { pointsExpiry: { afterDays: 30 } } satisfies TenantSettings;

const knex = () => harness.context.orm.em.getKnex();
const inTransaction = <T>(work: (trx: Knex.Transaction) => Promise<T>) => knex().transaction(work);
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

async function tenantWithMembers(count: number): Promise<{ tenant: TestTenant; members: { id: string }[] }> {
  const tenant = await harness.createTenant({ configuration: EXPIRY });
  const token = await harness.adminToken(tenant, ['admin:users']);
  const members: { id: string }[] = [];
  for (let index = 0; index < count; index += 1)
    members.push(await registerMember(harness, tenant, token, `member-${index}`));
  return { tenant, members };
}

function earnAt(tenant: TestTenant, member: { id: string }, points: number, at: Date) {
  nextEventId += 1;
  const cause = { eventId: nextEventId, reactorId: randomUUID() };
  return inTransaction((trx) => earn(trx, [{ tenantId: tenant.id, userId: member.id, points, cause }], at));
}

/** The member's balance, lifetime earnings, days, lots, and its ledger's sum. */
async function stateOf(userId: string) {
  return queryOne(
    harness,
    `select (select points::int from wallet where user_id = ?) as balance,
            (select lifetime_earn::int from wallet where user_id = ?) as "lifetimeEarn",
            (select coalesce(sum(points), 0)::int from ledger_entry where user_id = ?) as "ledgerSum",
            (select coalesce(-sum(points), 0)::int from ledger_entry where user_id = ? and kind = 'EXPIRY') as expired,
            (select coalesce(array_agg(remaining::int order by expires_at), '{}') from points_lot where user_id = ?) as lots,
            (select coalesce(sum(earned), 0)::int from points_day where user_id = ?) as "daysEarned",
            (select coalesce(sum(spent), 0)::int from points_day where user_id = ?) as "daysSpent"`,
    Array(7).fill(userId),
  );
}

async function countOf(sql: string, bindings: readonly Knex.RawBinding[]): Promise<number> {
  return (await knex().raw<{ rows: { n: number }[] }>(sql, bindings)).rows[0]!.n;
}

/** Every EARN of these members that expires, with how many EXPIRY entries name it and what they took. */
async function expiriesPerEarn(userIds: string[]) {
  const rows = await knex().raw<{ rows: { earned: number; expiries: number; expired: number }[] }>(
    `select e.points::int as earned, count(x.id)::int as expiries, coalesce(-sum(x.points), 0)::int as expired
       from ledger_entry e left join ledger_entry x on x.expires_entry_id = e.id and x.kind = 'EXPIRY'
      where e.user_id = any(?::uuid[]) and e.kind = 'EARN' and e.expires_at is not null
      group by e.id`,
    [userIds],
  );
  return rows.rows;
}

// Issue 21: "A scheduled job (BullMQ job scheduler, one run at a time across replicas) writes EXPIRY
// entries for what is due, in batches, idempotently (a run repeated or killed halfway and rerun never
// expires a point twice), and the balance never goes below zero."
describe('the points expiry sweep', () => {
  // A sweep expires every tenant's lots due: each test sweeps only its own, whatever one before it left.
  beforeEach(async () => {
    await knex().raw('delete from points_lot');
  });

  // decisions §9: "Points granted for a receipt are reversed if it is later rejected": what expired of them is
  // gone already, and a reversal takes back only what the earning still holds.
  it('reverses an expired earning for nothing: the points it expired are not taken a second time', async () => {
    const { tenant, members } = await tenantWithMembers(1);
    const member = members[0]!;
    await inTransaction((trx) =>
      adjust(trx, {
        entryId: randomUUID(),
        tenantId: tenant.id,
        userId: member.id,
        points: 200,
        cause: { reason: 'welcome', actor: 'support' },
        at: day('2026-01-01'),
      }),
    );
    await earnAt(tenant, member, 100, day('2026-01-01'));
    await expirePoints(knex(), { now: day('2026-02-15'), batchSize: 100 });
    expect(await stateOf(member.id)).toMatchObject({ balance: 200, expired: 100, lots: [] });
    const [earned] = await inTransaction((trx) => openEarns(trx, [nextEventId]));
    await inTransaction((trx) =>
      reverse(trx, [{ entryId: earned!.entryId, cause: { eventId: nextEventId + 1 } }], day('2026-02-16')),
    );
    expect(await stateOf(member.id)).toMatchObject({ balance: 200, ledgerSum: 200 });
  });

  // Issue 21: "Spending takes the oldest unexpired points first (FIFO), so what expires is what was not spent."
  it('expires the unspent part of the lots due, once, and leaves a lot not due', async () => {
    const { tenant, members } = await tenantWithMembers(1);
    const member = members[0]!;
    await earnAt(tenant, member, 100, day('2026-01-01')); // due 2026-01-31
    await earnAt(tenant, member, 50, day('2026-01-11')); // due 2026-02-10
    await earnAt(tenant, member, 70, day('2026-01-21')); // due 2026-02-20
    await inTransaction((trx) =>
      spend(trx, {
        tenantId: tenant.id,
        userId: member.id,
        points: 60,
        cause: { purchaseId: randomUUID() },
        at: day('2026-01-25'),
        policy: pointsPolicyOf(EXPIRY),
      }),
    );
    expect(await stateOf(member.id)).toMatchObject({ balance: 160, lots: [40, 50, 70] });

    // Two lots due: 40 left of the oldest (60 of it spent), all 50 of the second.
    const first = await expirePoints(knex(), { now: day('2026-02-15'), batchSize: 100 });
    expect(first).toMatchObject({ ran: true, entries: 2, points: 90 });
    // "Expiry does not change points_day nor lifetime_earn": an expiry is neither an earning nor a spend.
    expect(await stateOf(member.id)).toEqual({
      balance: 70,
      lifetimeEarn: 220,
      ledgerSum: 70,
      expired: 90,
      lots: [70],
      daysEarned: 220,
      daysSpent: 60,
    });
    const entries = await knex().raw<{ rows: { points: number; atSweep: boolean; expires: number }[] }>(
      `select x.points::int, x.created_at = ? as "atSweep", e.points::int as expires
         from ledger_entry x join ledger_entry e on e.id = x.expires_entry_id
        where x.user_id = ? and x.kind = 'EXPIRY' order by e.created_at`,
      [day('2026-02-15'), member.id],
    );
    expect(entries.rows).toEqual([
      { points: -40, atSweep: true, expires: 100 },
      { points: -50, atSweep: true, expires: 50 },
    ]);

    // "a run repeated ... never expires a point twice"
    expect(await expirePoints(knex(), { now: day('2026-02-15'), batchSize: 100 })).toMatchObject({
      ran: true,
      entries: 0,
      points: 0,
    });
    expect(await stateOf(member.id)).toMatchObject({ balance: 70, expired: 90, lots: [70] });

    // The third is due at its own time, and then nothing is left.
    await expirePoints(knex(), { now: day('2026-02-20'), batchSize: 100 });
    expect(await stateOf(member.id)).toMatchObject({ balance: 0, ledgerSum: 0, expired: 160, lots: [] });
  });

  it('expires in batches, each lot once, however small the batch', async () => {
    const { tenant, members } = await tenantWithMembers(3);
    for (let index = 0; index < 12; index += 1)
      await earnAt(tenant, members[index % 3]!, 10 + index, new Date(day('2026-03-01').getTime() + index * 60_000));
    const run = await expirePoints(knex(), { now: day('2026-04-30'), batchSize: 5 });
    // 12 lots in batches of 5: 5, 5 and 2; a fourth read finds none due.
    expect(run).toEqual({ ran: true, entries: 12, points: 12 * 10 + 66, batches: 3 });
    for (const member of members)
      expect(await stateOf(member.id)).toMatchObject({ balance: 0, ledgerSum: 0, lots: [] });
    expect(await expiriesPerEarn(members.map((member) => member.id))).toEqual(
      Array.from({ length: 12 }, () => expect.objectContaining({ expiries: 1 })),
    );
  });

  // "one run at a time across replicas"
  it('returns at once, expiring nothing, while another run holds the sweep', async () => {
    const { tenant, members } = await tenantWithMembers(1);
    await earnAt(tenant, members[0]!, 30, day('2026-01-01'));
    const other = await knex().client.acquireConnection();
    try {
      await other.query('select pg_advisory_lock($1)', [EXPIRY_LOCK_KEY]);
      expect(await expirePoints(knex(), { now: day('2026-06-01'), batchSize: 10 })).toEqual({
        ran: false,
        entries: 0,
        points: 0,
        batches: 0,
      });
      expect(await stateOf(members[0]!.id)).toMatchObject({ balance: 30, lots: [30] });
    } finally {
      await other.query('select pg_advisory_unlock($1)', [EXPIRY_LOCK_KEY]);
      await knex().client.releaseConnection(other);
    }
    expect(await expirePoints(knex(), { now: day('2026-06-01'), batchSize: 10 })).toMatchObject({
      ran: true,
      points: 30,
    });
  });

  it('expires each lot once when two sweeps start together', async () => {
    const { tenant, members } = await tenantWithMembers(4);
    for (let index = 0; index < 40; index += 1)
      await earnAt(tenant, members[index % 4]!, 5, new Date(day('2026-02-01').getTime() + index * 60_000));
    const runs = await Promise.all([
      expirePoints(knex(), { now: day('2026-06-01'), batchSize: 3 }),
      expirePoints(knex(), { now: day('2026-06-01'), batchSize: 3 }),
    ]);
    // Sum of EXPIRY = what was due and unspent, whichever run (or both, one after the other) did it.
    expect(runs[0]!.points + runs[1]!.points).toBe(200);
    expect(await expiriesPerEarn(members.map((member) => member.id))).toEqual(
      Array.from({ length: 40 }, () => ({ earned: 5, expiries: 1, expired: 5 })),
    );
    for (const member of members) expect(await stateOf(member.id)).toMatchObject({ balance: 0, ledgerSum: 0 });
  });

  // "Batches also use skip locked so even overlapping runs could not expire a lot twice" (docs/points.md#the-sweep).
  it('expires each lot once when batches of several runs overlap, without the sweep lock', async () => {
    const { tenant, members } = await tenantWithMembers(3);
    for (let index = 0; index < 30; index += 1)
      await earnAt(tenant, members[index % 3]!, 7, new Date(day('2026-02-01').getTime() + index * 60_000));
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() => expireDueLots(knex(), { now: day('2026-06-01'), batchSize: 2 })),
    );
    expect(runs.reduce((sum, run) => sum + run.points, 0)).toBe(210);
    expect(await expiriesPerEarn(members.map((member) => member.id))).toEqual(
      Array.from({ length: 30 }, () => ({ earned: 7, expiries: 1, expired: 7 })),
    );
    for (const member of members)
      expect(await stateOf(member.id)).toMatchObject({ balance: 0, ledgerSum: 0, lots: [] });
  });

  // "the balance never goes below zero"
  it('never takes a balance below zero, even were a lot to hold more than it', async () => {
    const { tenant, members } = await tenantWithMembers(1);
    const member = members[0]!;
    await earnAt(tenant, member, 40, day('2026-01-01'));
    await earnAt(tenant, member, 25, day('2026-01-02'));
    // A state the ledger never writes (its lots never hold more than the balance), made by hand.
    await knex().raw('update wallet set points = 30 where user_id = ?', [member.id]);
    const run = await expirePoints(knex(), { now: day('2026-06-01'), batchSize: 10 });
    expect(run).toMatchObject({ entries: 1, points: 30 });
    expect(await stateOf(member.id)).toMatchObject({ balance: 0, expired: 30, lots: [] });
  });

  // Issue 21: "Tests show: a sweep killed halfway and rerun expires each point once."
  it('expires each point once when a sweep is killed halfway and run again', async () => {
    const { tenant, members } = await tenantWithMembers(6);
    const ids = members.map((member) => member.id);
    // 60 lots, a minute apart, of the members in turn.
    for (let index = 0; index < 60; index += 1)
      await earnAt(tenant, members[index % 6]!, 1 + index, new Date(day('2026-01-01').getTime() + index * 60_000));
    // The sweep locks each batch's wallets first; the test holds the last member's, whose first
    // lot is the sixth due, so the sweep commits its first batches and then waits, mid-batch.
    const holder = await knex().transaction();
    const killed = 'tally-expiry-killed';
    try {
      await holder.raw('select 1 from wallet where user_id = ? for update', [members[5]!.id]);
      const sweep = spawnEntry('test/support/expire-points-run.ts', [], {
        DATABASE_URL: harness.config.databaseUrl,
        // Names the child's sessions, so the test can see them wait and then end.
        PGAPPNAME: killed,
        EXPIRY_NOW: day('2026-06-01').toISOString(),
        EXPIRY_BATCH_SIZE: '2',
      });
      const sweepDone = finished(sweep);
      const expiries = () =>
        countOf(`select count(*)::int as n from ledger_entry where kind = 'EXPIRY' and user_id = any(?::uuid[])`, [
          ids,
        ]);
      const waitingOnLock = () =>
        countOf(
          `select count(*)::int as n from pg_stat_activity where application_name = ? and wait_event_type = 'Lock'`,
          [killed],
        );
      // Positive signals: a batch committed, and the sweep now waits on the held wallet.
      await expect.poll(expiries, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
      await expect.poll(waitingOnLock, { timeout: 60_000, interval: 20 }).toBe(1);
      sweep.kill('SIGKILL');
      const { stdout, stderr } = await sweepDone;
      // Killed before it finished: it never printed its run.
      expect({ stdout, stderr }).toEqual({ stdout: '', stderr: '' });
      expect(await expiries()).toBeGreaterThan(0);
      expect(await expiries()).toBeLessThan(60);
      // The killed run's session ends by itself, though the lock it waited for is still held (it
      // checks that its client is there every few seconds); its batch never commits, and the
      // sweep's lock is free.
      const sessions = () =>
        countOf('select count(*)::int as n from pg_stat_activity where application_name = ?', [killed]);
      await expect.poll(sessions, { timeout: 60_000, interval: 20 }).toBe(0);
    } finally {
      await holder.rollback();
    }
    const rerun = await expirePoints(knex(), { now: day('2026-06-01'), batchSize: 2 });
    expect(rerun.ran).toBe(true);
    expect(await expiriesPerEarn(ids)).toEqual(
      Array.from({ length: 60 }, () => expect.objectContaining({ expiries: 1 })),
    );
    for (const row of await expiriesPerEarn(ids)) expect(row.expired).toBe(row.earned);
    for (const member of members)
      expect(await stateOf(member.id)).toMatchObject({ balance: 0, ledgerSum: 0, lots: [] });
  }, 120_000);

  it('runs as the points-expiry worker, at the time of the service, counting what it expired', async () => {
    const { tenant, members } = await tenantWithMembers(1);
    await earnAt(tenant, members[0]!, 45, new Date(clock.now()));
    clock.advance(31 * 24 * 60 * 60 * 1000);
    const workers = startWorkers(harness.context, ['points-expiry']);
    const before = (await metricValue(harness.context.metrics, 'tally_points_expired_total')) ?? 0;
    try {
      const job = await harness.context.queues['points-expiry'].add('sweep', {});
      await expect.poll(() => job.isCompleted(), { timeout: 30_000, interval: 20 }).toBe(true);
    } finally {
      await closeWorkers(workers);
    }
    expect(await stateOf(members[0]!.id)).toMatchObject({ balance: 0, expired: 45, lots: [] });
    expect(await metricValue(harness.context.metrics, 'tally_points_expired_total')).toBe(before + 45);
  });

  it('runs on one schedule however many workers ask for it', async () => {
    await schedulePointsExpiry(harness.context);
    await schedulePointsExpiry(harness.context);
    const schedulers = await harness.context.queues['points-expiry'].getJobSchedulers();
    expect(schedulers).toEqual([
      expect.objectContaining({ key: 'expire-points', every: harness.config.pointsExpiryEveryMs }),
    ]);
  });
});
