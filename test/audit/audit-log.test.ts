import { randomUUID } from 'node:crypto';
import { QueueEvents, type Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditJob } from '../../shared/audit/audit-job.js';
import { auditedChange, ENQUEUE_TIMEOUT_MS, recordAuditEntry, type AdminChange } from '../../shared/audit/audit-log.js';
import { recoverStranded, recoveryDependencies } from '../../shared/recovery/recover-stranded.js';
import { closeQueues, createQueues, queuePrefix } from '../../shared/platform/queues/queue-factory.js';
import { createRedis } from '../../shared/platform/redis/redis.js';
import { startWorker } from '../../shared/platform/queues/worker-runner.js';
import { queueCatalog } from '../../shared/job-catalog.js';
import { closeWorkers, startWorkers, workerDependencies } from '../../workers/start-workers.js';
import { createHarness, dataOf, type Harness, type TestTenant, queryOne } from '../support/harness.js';
import { ManualClock } from '../support/manual-clock.js';

let harness: Harness;
let tenant: TestTenant;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

function auditJob(overrides: Partial<AuditJob> = {}): AuditJob {
  return {
    id: randomUUID(),
    tenantId: tenant.id,
    actor: { subject: 'ops', scopes: ['admin:event_types'] },
    action: 'event_type.updated',
    resourceType: 'event_type',
    resourceId: randomUUID(),
    before: { isActive: true },
    after: { isActive: false },
    occurredAt: new Date().toISOString(),
    ...overrides,
  };
}

async function countEntries(id: string): Promise<number> {
  const row = await queryOne(harness, 'select count(*)::int as n from audit_entry where id = ?', [id]);
  return row.n;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function outboxed(action: string): Promise<number> {
  return (
    await queryOne(harness, "select count(*)::int as n from audit_outbox where tenant_id = ? and job->>'action' = ?", [
      tenant.id,
      action,
    ])
  ).n;
}

async function recorded(action: string): Promise<number> {
  return (
    await queryOne(harness, 'select count(*)::int as n from audit_entry where tenant_id = ? and action = ?', [
      tenant.id,
      action,
    ])
  ).n;
}

function change(action: string): AdminChange {
  const { id: _id, occurredAt: _at, ...rest } = auditJob({ action });
  return rest;
}

// Issue 3: "every admin change … is put on an audit queue and a worker records it"; brief: "nothing already accepted is lost".
describe('an admin change and its audit entry', () => {
  it('when Redis will not take the job, the change is answered within the enqueue timeout, and the recovery sweep queues the entry the outbox kept', async () => {
    const closed = createRedis(harness.config.redisUrl, 'test-closed');
    await closed.quit();
    const queues = createQueues(queueCatalog, closed, `${harness.config.redisPrefix}-closed`, harness.context.logger);
    // The enqueue's time is the test's clock: what is asserted is the bound it waits by, not how long a busy machine took.
    const clock = new ManualClock();
    const answer = await auditedChange(
      { queues, logger: harness.context.logger, clock },
      harness.context.orm.em.fork(),
      async () => 'changed',
      () => change('test.redis_away'),
    );
    expect(answer).toBe('changed');
    // The enqueue was bounded by the timeout, and answered before any of it had passed: Redis refused at once.
    expect(clock.timers.map((timer) => [timer.ms, timer.state])).toEqual([[ENQUEUE_TIMEOUT_MS, 'cancelled']]);
    expect([await outboxed('test.redis_away'), await recorded('test.redis_away')]).toEqual([1, 0]);
    await closeQueues(queues).catch(() => {});

    expect((await recoverStranded(recoveryDependencies(harness.context), 0)).auditEntries).toBeGreaterThanOrEqual(1);
    const { id } = await queryOne(harness, "select id from audit_outbox where job->>'action' = 'test.redis_away'");
    const queued = (await harness.context.queues.audit.getJob(id))!;
    expect(queued.data).toMatchObject({ id, action: 'test.redis_away', tenantId: tenant.id });
    // What the audit worker does with it (the worker itself is tested below), without leaving the job for their workers.
    await recordAuditEntry(harness.context.orm.em.fork(), queued.data);
    await queued.remove();
    expect([await outboxed('test.redis_away'), await recorded('test.redis_away')]).toEqual([0, 1]);
  });

  it('when Redis does not answer, the change is answered once the enqueue timeout has passed, and the outbox keeps the entry', async () => {
    // Nothing listens on port 1: the connection keeps retrying and the job waits in its offline queue.
    const silent = createRedis('redis://127.0.0.1:1', 'test-silent');
    const queues = createQueues(queueCatalog, silent, `${harness.config.redisPrefix}-silent`, harness.context.logger);
    const clock = new ManualClock();
    let answered = false;
    try {
      const answering = auditedChange(
        { queues, logger: harness.context.logger, clock },
        harness.context.orm.em.fork(),
        async () => 'changed',
        () => change('test.redis_silent'),
      ).finally(() => (answered = true));
      await expect
        .poll(() => clock.timers.map((timer) => [timer.ms, timer.state]))
        .toEqual([[ENQUEUE_TIMEOUT_MS, 'pending']]);
      expect(answered).toBe(false);
      clock.advance(ENQUEUE_TIMEOUT_MS);
      expect(await answering).toBe('changed');
      expect([await outboxed('test.redis_silent'), await recorded('test.redis_silent')]).toEqual([1, 0]);
    } finally {
      silent.disconnect();
    }
  });

  it("an entry's occurredAt is the time of the service's clock, as every other time the service records", async () => {
    const clock = new ManualClock();
    clock.advance(Date.parse('2031-02-03T04:05:06.789Z'));
    await auditedChange(
      { queues: harness.context.queues, logger: harness.context.logger, clock },
      harness.context.orm.em.fork(),
      async () => undefined,
      () => change('test.clocked'),
    );
    const { job, created_at } = await queryOne(
      harness,
      "select job, created_at from audit_outbox where job->>'action' = 'test.clocked'",
    );
    // Not left for the audit workers of the tests below.
    await harness.context.queues.audit.remove(job.id);
    expect(job.occurredAt).toBe('2031-02-03T04:05:06.789Z');
    expect(new Date(created_at).toISOString()).toBe('2031-02-03T04:05:06.789Z');
  });

  it('a change that fails stages no entry: the change and its entry commit together', async () => {
    const failing = auditedChange(
      harness.context,
      harness.context.orm.em.fork(),
      async () => {
        throw new Error('the change failed');
      },
      () => change('test.failed_change'),
    );
    await expect(failing).rejects.toThrow('the change failed');
    expect([await outboxed('test.failed_change'), await recorded('test.failed_change')]).toEqual([0, 0]);
  });
});

describe('the audit worker', () => {
  it('a job delivered twice is recorded once, and its place in the outbox emptied', async () => {
    await auditedChange(
      harness.context,
      harness.context.orm.em.fork(),
      async () => undefined,
      () => change('test.delivered_twice'),
    );
    const { job } = await queryOne(
      harness,
      "select job from audit_outbox where job->>'action' = 'test.delivered_twice'",
    );
    // Delivered here by hand: the queued job is not left for the workers of the tests below.
    await harness.context.queues.audit.remove(job.id);
    await recordAuditEntry(harness.context.orm.em.fork(), job as AuditJob);
    await recordAuditEntry(harness.context.orm.em.fork(), job as AuditJob);
    expect(await countEntries(job.id)).toBe(1);
    expect(await outboxed('test.delivered_twice')).toBe(0);
  });

  it('a job that throws is retried with backoff and recorded exactly once', async () => {
    const job = auditJob();
    let calls = 0;
    const queueEvents = new QueueEvents('audit', {
      connection: createRedis(harness.config.redisUrl, 'test-events'),
      prefix: queuePrefix(harness.config.redisPrefix, 'audit'),
    });
    await queueEvents.waitUntilReady();
    // The real handler behind one that fails its first two deliveries, as a database blip would.
    const worker = startWorker(
      'audit',
      queueCatalog.audit,
      async (data) => {
        calls += 1;
        if (calls <= 2) throw new Error('transient failure');
        await recordAuditEntry(harness.context.orm.em.fork(), data);
      },
      workerDependencies(harness.context),
    );
    try {
      const added = await harness.context.queues.audit.add('record', job, {
        jobId: job.id,
        backoff: { type: 'fixed', delay: 50 },
      });
      await added.waitUntilFinished(queueEvents, 15_000);
      expect(calls).toBe(3);
      expect(await countEntries(job.id)).toBe(1);
      const metrics = await harness.context.metrics.registry.getSingleMetricAsString('tally_jobs_total');
      expect(metrics).toContain('outcome="retried"} 2');
      expect(metrics).toContain('outcome="completed"} 1');
    } finally {
      await worker.close();
      await queueEvents.close();
    }
  });

  it('a payload that breaks the catalog schema fails for good, without retries', async () => {
    const worker = startWorker('audit', queueCatalog.audit, async () => {}, workerDependencies(harness.context));
    try {
      // Not an audit job: the queue's types would refuse it, as the worker must.
      const added = await harness.context.queues.audit.add('record', { not: 'an audit job' } as never);
      await waitFor(async () => (await added.getState()) === 'failed');
      const failed = await harness.context.queues.audit.getJob(added.id!);
      expect(failed?.attemptsMade).toBe(1);
      expect(failed?.failedReason).toContain('does not match the audit schema');
    } finally {
      await worker.close();
    }
  });
});

// Issue 3 §9: "every admin change … is put on an audit queue and a worker records it … GET /v1/audit-log (admin:tenant, list helper) reads it."
describe('GET /v1/audit-log', () => {
  it('records event type changes made through the API, with the actor and without secrets', async () => {
    workers = startWorkers(harness.context, ['audit']);
    // A tenant of its own: the worker tests above wrote entries for the first one.
    const tenant = await harness.createTenant();
    const admin = await harness.adminToken(tenant, ['admin:event_types'], 'alice@example.com');
    const created = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name: 'AUDITED', description: 'x', isPrivate: true },
    });
    const { secret } = await dataOf<{ secret: string }>(created);
    await harness.request(tenant, 'PATCH', '/v1/event_types/AUDITED', {
      token: admin,
      body: { description: 'changed' },
    });
    const rotated = await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types/AUDITED/secret', { token: admin }),
    );

    const reader = await harness.adminToken(tenant, ['admin:tenant']);
    let entries: {
      action: string;
      actor: { subject: string; scopes: string[] };
      before: unknown;
      after: { description?: string };
    }[] = [];
    await waitFor(async () => {
      const response = await harness.request(tenant, 'GET', '/v1/audit-log?sort=occurredAt&order=ASC', {
        token: reader,
      });
      entries = await dataOf(response);
      return entries.length === 3;
    });
    expect(entries.map((entry) => entry.action)).toEqual([
      'event_type.created',
      'event_type.updated',
      'event_type.secret_rotated',
    ]);
    expect(entries[0]!.actor).toEqual({ subject: 'alice@example.com', scopes: ['admin:event_types'] });
    expect(entries[1]).toMatchObject({ before: { description: 'x' }, after: { description: 'changed' } });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(rotated.secret);

    const filtered = await harness.request(
      tenant,
      'GET',
      `/v1/audit-log?filter=${encodeURIComponent("action:(eq:'event_type.updated')")}`,
      { token: reader },
    );
    expect(filtered.headers.get('content-range')).toBe('audit_entry 0-0/1');
  });

  it('needs admin:tenant', async () => {
    const tenant = await harness.createTenant();
    const response = await harness.request(tenant, 'GET', '/v1/audit-log', {
      token: await harness.adminToken(tenant, ['admin:event_types']),
    });
    expect(response.status).toBe(401);
  });
});
