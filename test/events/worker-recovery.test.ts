import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBatch, EventJob } from '../../shared/events/event-job.js';
import { duplicateIdentity } from '../../shared/events/duplicate-window.js';
import { markReacted, registerEvents, registrationDependencies } from '../../shared/reactors/register-events.js';
import { eventsHandler } from '../../workers/events.js';
import { queueCatalog } from '../../shared/job-catalog.js';
import { compile } from '../../shared/platform/validation/ajv.js';
import { finished, spawnEntry, startEntry } from '../support/run-process.js';
import { createHarness, dataOf, queryOne, registerMember, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let secret: string;
let member: { id: string };
let typeId: string;

beforeAll(async () => {
  harness = await createHarness();
  // A point-of-sale fleet's volume: well above the default 100/s.
  tenant = await harness.createTenant({ configuration: { rateLimit: { perSecond: 100_000, burst: 100_000 } } });
  const admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors']);
  const created = await dataOf<{ id: string; secret: string }>(
    await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name: 'SALE_MADE', description: 'x', isPrivate: true },
    }),
  );
  secret = created.secret;
  typeId = created.id;
  member = await registerMember(harness, tenant, admin, 'till-member');
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'Ten per sale',
      eventType: 'SALE_MADE',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
    },
  });
});
afterAll(() => harness.close());

async function totals() {
  return queryOne(
    harness,
    `select (select count(*)::int from event where tenant_id = ?) as events,
            (select count(*)::int from ledger_entry where tenant_id = ?) as entries,
            (select coalesce(sum(points), 0)::int from ledger_entry where tenant_id = ?) as ledger,
            (select coalesce(sum(points), 0)::int from wallet where tenant_id = ?) as wallet`,
    [tenant.id, tenant.id, tenant.id, tenant.id],
  );
}

/** An accepted SALE_MADE report as the API queues it, under a fresh event id. */
async function saleReport(payload: Record<string, unknown>, userId = member.id): Promise<EventJob> {
  return {
    id: await harness.context.eventIds.allocate(),
    tenantId: tenant.id,
    eventTypeId: typeId,
    eventTypeName: 'SALE_MADE',
    userId,
    payload,
    reportedAt: new Date().toISOString(),
    occurredAt: null,
  };
}

/** The environment of a spawned events worker on this file's database and Redis prefix. */
function workerEnv(settings: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: harness.config.databaseUrl,
    REDIS_PREFIX: harness.config.redisPrefix,
    PLATFORM_TOKEN_SECRET: 'x',
    LOG_LEVEL: 'info',
    WORKER_PORT: '0',
    ...settings,
  };
}

const activeJobs = async () => (await harness.context.queues.events.getJobCounts('active')).active;

/**
 * Reports a sale while holding the member's wallet row, so the worker that takes its job waits
 * inside it; committing the transaction returned lets it go on.
 */
async function reportWithWalletHeld(sale: string) {
  const knex = harness.context.orm.em.fork().getKnex();
  await knex.raw(
    'insert into wallet (user_id, tenant_id, points, lifetime_earn, updated_at) values (?, ?, 0, 0, now()) on conflict do nothing',
    [member.id, tenant.id],
  );
  const holder = await knex.transaction();
  await holder.raw('select * from wallet where user_id = ? for update', [member.id]);
  const response = await harness.request(tenant, 'POST', '/v1/events', {
    token: secret,
    body: { type: 'SALE_MADE', subject: 'till-member', payload: { sale } },
  });
  expect(response.status).toBe(201);
  return holder;
}

// Issue 4: "A job delivered twice (retry, stalled job, crash between commit and ack) never stores or grants twice."
describe('the event worker under retries and crashes', () => {
  it('the same job registered twice stores and grants once', async () => {
    const before = await totals();
    const job = await saleReport({ sale: 'twice' });
    const deps = registrationDependencies(harness.context);
    // No webhook takes it: the first run reacts to it as it registers it, and a run that finds it
    // so has nothing left to do; one that finds its reactions unfinished runs them (again).
    expect(await registerEvents(deps, [job, job])).toEqual([undefined, undefined]);
    expect(await registerEvents(deps, [job])).toEqual([undefined]);
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute('update event set reacted_at = null where id = ?', [job.id]);
    expect(await registerEvents(deps, [job])).toEqual([{ webhookIds: [] }]);
    await Promise.all([registerEvents(deps, [job]), registerEvents(deps, [job])]);
    const after = await totals();
    expect(after.events - before.events).toBe(1);
    expect(after.entries - before.entries).toBe(1);
    expect(after.wallet - before.wallet).toBe(10);
  });

  it('a job of reports registers only the accepted ones, once however often it runs, and a failing event holds back no other', async () => {
    const before = await totals();
    const identity = (event: EventJob) => duplicateIdentity(tenant.id, 'SALE_MADE', event.userId!, event.payload);
    const [first, second, duplicate] = [
      await saleReport({ sale: 'a' }),
      await saleReport({ sale: 'b' }),
      await saleReport({ sale: 'a' }),
    ];
    // A member id that does not exist: its registration fails on the foreign key, every time.
    const failing = await saleReport({ sale: 'c' }, '00000000-0000-4000-8000-00000000dead');
    const accepted = await Promise.all(
      [first, second, duplicate, failing].map((event) => harness.context.eventQueue.enqueue(event, identity(event))),
    );
    expect(accepted).toEqual([true, true, false, true]);

    // Run by hand, not by a worker: the job is taken off the queue.
    const [queued, ...others] = await harness.context.queues.events.getJobs(['waiting']);
    expect(others).toHaveLength(0);
    await queued!.remove();
    const handle = eventsHandler(harness.context);
    try {
      const job = queued!.data as EventBatch;
      expect(job.events.map((event) => event.id)).toEqual([first.id, second.id, duplicate.id, failing.id]);
      await expect(handle(job, undefined as never)).rejects.toThrow();
      await expect(handle(job, undefined as never)).rejects.toThrow();
      expect(await harness.context.acceptedReports.pending([first.id, second.id, failing.id])).toEqual(
        new Set([failing.id]),
      );
    } finally {
      await handle.close?.();
    }
    const after = await totals();
    expect(after.events - before.events).toBe(2);
    expect(after.wallet - before.wallet).toBe(20);
  });

  it('a report queued alone by an older release, its job deduplicated by BullMQ, is registered as it is', async () => {
    const before = await totals();
    const report = await saleReport({ sale: 'queued by the last release' });
    // The worker checks a job against the catalog before its handler sees it.
    expect(compile(queueCatalog.events.payload)(report)).toBe(true);
    const handle = eventsHandler(harness.context);
    try {
      await handle(report, undefined as never);
    } finally {
      await handle.close?.();
    }
    const after = await totals();
    expect(after.events - before.events).toBe(1);
    expect(after.wallet - before.wallet).toBe(10);
  });

  it('a worker killed with SIGKILL mid-batch and restarted loses no event and grants none twice', async () => {
    const before = await totals();
    const count = 3000;
    for (let i = 0; i < count; i += 100) {
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, j) =>
          harness.request(tenant, 'POST', '/v1/events', {
            token: secret,
            body: { type: 'SALE_MADE', subject: 'till-member', payload: { sale: i + j } },
          }),
        ),
      );
      expect(responses.every((response) => response.status === 201)).toBe(true);
    }

    const env = workerEnv({ WORKER_LOCK_MS: '1000', WORKER_STALLED_CHECK_MS: '500', LOG_LEVEL: 'warn' });
    const first = spawnEntry('main.ts', ['worker', 'events'], env);
    const firstDone = finished(first);
    await expect
      .poll(async () => (await totals()).events - before.events, { timeout: 60_000, interval: 20 })
      .toBeGreaterThan(0);
    first.kill('SIGKILL');
    await firstDone;
    const atKill = (await totals()).events - before.events;
    expect(atKill).toBeLessThan(count);

    const second = spawnEntry('main.ts', ['worker', 'events'], env);
    const secondDone = finished(second);
    try {
      await expect
        .poll(async () => (await totals()).events - before.events, { timeout: 60_000, interval: 200 })
        .toBe(count);
    } finally {
      second.kill('SIGTERM');
      await secondDone;
    }
    const after = await totals();
    expect(after.entries - before.entries).toBe(count);
    expect(after.ledger - before.ledger).toBe(10 * count);
    expect(after.wallet).toBe(after.ledger);
    const duplicates = await queryOne(
      harness,
      'select count(*)::int as n from (select event_id from ledger_entry group by event_id having count(*) > 1) d',
    );
    expect(duplicates.n).toBe(0);
  }, 180_000);

  // docs/operations.md#durability: "A worker that dies holding a job: another worker takes the job up
  // within WORKER_LOCK_MS + WORKER_STALLED_CHECK_MS". Short values here; the defaults' bound is
  // checked in test/platform/config.test.ts rather than waited for.
  it('a job in hand when its worker is killed with SIGKILL is taken up by another worker once its lock lapses', async () => {
    const before = await totals();
    const env = workerEnv({ WORKER_LOCK_MS: '1000', WORKER_STALLED_CHECK_MS: '500' });
    // The job waits inside the first worker until it is killed.
    const holder = await reportWithWalletHeld('in the hands of a dead worker');
    const first = spawnEntry('main.ts', ['worker', 'events'], env);
    const firstDone = finished(first);
    await expect.poll(activeJobs, { timeout: 60_000, interval: 50 }).toBe(1);
    first.kill('SIGKILL');
    await firstDone;
    await holder.commit();
    // Nobody runs it now: it is active in Redis, locked to a process that is gone.
    expect(await activeJobs()).toBe(1);

    const running = await startEntry('main.ts', ['worker', 'events'], env, 'workers started');
    try {
      await expect.poll(async () => (await totals()).events - before.events, { timeout: 60_000, interval: 50 }).toBe(1);
      await running.waitForLog('job stalled');
    } finally {
      running.child.kill('SIGTERM');
    }
    expect((await running.done).code).toBe(0);
    const after = await totals();
    expect(after.wallet - before.wallet).toBe(10);
  }, 120_000);

  // Issue 3: "SIGTERM drains: … workers finish their current jobs, connections close, exit 0."
  it('a worker told to stop with SIGTERM finishes the job in hand before it exits', async () => {
    const before = await totals();
    // The job's transaction waits inside the worker.
    const holder = await reportWithWalletHeld('in hand');
    const worker = spawnEntry('main.ts', ['worker', 'events'], workerEnv());
    const done = finished(worker);
    let logs = '';
    worker.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    // A worker process starts in a few seconds alone, but far slower beside the whole suite (the OCR
    // tests keep the cores busy): the wait is generous, as the test is about shutdown, not speed.
    await expect.poll(activeJobs, { timeout: 60_000, interval: 50 }).toBe(1);
    worker.kill('SIGTERM');
    // The worker has taken the signal; the job it holds cannot end while the wallet row is held, so it is still in hand.
    await expect.poll(() => logs, { timeout: 30_000, interval: 50 }).toContain('draining');
    expect(await harness.context.queues.events.getJobCounts('active')).toMatchObject({ active: 1 });
    expect(worker.exitCode).toBeNull(); // still finishing the job
    await holder.commit();

    const result = await done;
    expect(result.code).toBe(0);
    expect(logs).toContain('stopped');
    const after = await totals();
    expect(after.events - before.events).toBe(1);
    expect(after.wallet - before.wallet).toBe(10);
  }, 120_000);
});

// The style guide, point 5: "The tenant is in every query". A batch of the event worker mixes
// tenants: an event an earlier run registered is looked for, and stamped reacted, within the
// tenant of the job that names it.
describe('the event worker across tenants', () => {
  it("neither finds nor stamps another tenant's event under the same id", async () => {
    const other = await harness.createTenant();
    const job = await saleReport({ sale: 'ours' });
    const deps = registrationDependencies(harness.context);
    await registerEvents(deps, [job]);
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute('update event set reacted_at = null where id = ?', [job.id]);
    const stranger = { ...job, tenantId: other.id };
    expect(await registerEvents(deps, [stranger])).toEqual([undefined]);
    await markReacted(harness.context.orm, [stranger]);
    expect(await queryOne(harness, 'select reacted_at from event where id = ?', [job.id])).toEqual({
      reacted_at: null,
    });
    // The event's own tenant still finds its reactions unfinished, and finishes them.
    expect(await registerEvents(deps, [job])).toEqual([{ webhookIds: [] }]);
    await markReacted(harness.context.orm, [job]);
    expect((await queryOne(harness, 'select reacted_at from event where id = ?', [job.id])).reacted_at).not.toBeNull();
  });
});
