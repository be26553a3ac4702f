import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import type { Worker } from 'bullmq';
import { postKilledBeforeAnswer } from '../support/killed-before-answer.js';
import {
  createHarness,
  dataOf,
  type Harness,
  jsonOf,
  queryOne,
  registerMember,
  type TestTenant,
} from '../support/harness.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/** Short, so a test waits for a dead request's claim to lapse in a second rather than the default 30 s. */
const LEASE_MS = 1000;
/** The statement that stores an answer: where the "process dies after acceptance" tests stop the first request. */

let harness: Harness;
let proxy: TcpProxy;
let tenant: TestTenant;
let secret: string;
let workers: Worker[] = [];

beforeAll(async () => {
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  harness = await createHarness({ databasePort: proxy.port, idempotencyLeaseMs: LEASE_MS });
  tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors']);
  secret = (
    await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types', {
        token: admin,
        body: { name: 'SALE_MADE', description: 'a sale', isPrivate: true },
      }),
    )
  ).secret;
  await registerMember(harness, tenant, admin, 'shopper');
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'Ten per sale',
      eventType: 'SALE_MADE',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
    },
  });
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
  await proxy.close();
});

const sale = (reference: string) => ({ type: 'SALE_MADE', subject: 'shopper', payload: { reference } });

function report(key: string, body: object) {
  return harness.request(tenant, 'POST', '/v1/events', { token: secret, body, headers: { 'Idempotency-Key': key } });
}

/** What the tenant's ledger holds for one sale: its events, EARN entries and points. */
async function grantsFor(reference: string) {
  return queryOne(
    harness,
    `select count(distinct e.id)::int as events, count(l.id)::int as entries, coalesce(sum(l.points), 0)::int as points, min(e.id)::text as "eventId"
       from event e left join ledger_entry l on l.event_id = e.id
      where e.tenant_id = ? and e.payload->>'reference' = ?`,
    [tenant.id, reference],
  );
}

/** Jobs the events queue still has to run: none once every report, retries included, is registered. */
async function eventJobsLeft(): Promise<number> {
  const counts = await harness.context.queues.events.getJobCounts('wait', 'active', 'delayed');
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/** As 60 s would: the duplicate window's claims (event-queue-writer.ts) lapse. */
async function lapseDuplicateWindow(): Promise<void> {
  const redis = harness.context.redis;
  const keys = await redis.keys(`${harness.context.queues.events.qualifiedName}:reported:*`);
  expect(keys.length).toBeGreaterThan(0);
  await redis.del(...keys);
}

/** The key's record: its reserved event id, and whether its claim has lapsed. */
function claimOf() {
  return queryOne(
    harness,
    'select reserved_id as "reservedId", response_status as status, claimed_until < now() as lapsed from idempotency_record where tenant_id = ? order by created_at desc limit 1',
    [tenant.id],
  );
}

// Issue 17: "A retried request with the same key within 24 h never does the work a second time,
// whatever died in between: the retry gets the first answer (for POST /v1/events: the same event id, 201)."
describe('an Idempotency-Key retry after the first request died once its event was accepted', () => {
  it('PostgreSQL away between acceptance and the answer: the report is still 201, and the retry answers the same id', async () => {
    const queue = harness.context.eventQueue;
    const enqueue = queue.enqueue.bind(queue);
    queue.enqueue = async (job, identity) => {
      const accepted = await enqueue(job, identity);
      await proxy.cut();
      return accepted;
    };
    let first: Response;
    try {
      first = await report('pg-away', sale('pg-away'));
    } finally {
      queue.enqueue = enqueue;
      await proxy.restore();
    }
    // "Work that was accepted is never answered as failed": the answer could not be stored, but it stands.
    expect(first.status).toBe(201);
    const { id } = (await jsonOf(first)).data;

    workers = startWorkers(harness.context, ['events']);
    await expect.poll(async () => (await grantsFor('pg-away')).events, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await claimOf()).lapsed, { timeout: 10_000 }).toBe(true);

    const retry = await report('pg-away', sale('pg-away'));
    expect(retry.status).toBe(201);
    expect((await jsonOf(retry)).data.id).toBe(id);
    const replayed = await report('pg-away', sale('pg-away'));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await jsonOf(replayed)).data.id).toBe(id);

    await closeWorkers(workers);
    workers = startWorkers(harness.context, ['events']);
    await expect.poll(eventJobsLeft, { timeout: 30_000 }).toBe(0);
    expect(await grantsFor('pg-away')).toMatchObject({ events: 1, entries: 1, points: 10, eventId: String(id) });
  }, 90_000);

  it('the API killed with SIGKILL after acceptance: the retry, once the claim lapsed, answers the reserved id and nothing is granted twice', async () => {
    // The first request goes as far as storing its answer, and no further: its event is
    // accepted (the answer is stored only after the queue's MULTI), then the process dies.
    await postKilledBeforeAnswer(harness, {
      path: '/v1/events',
      headers: { 'X-Api-Key': tenant.key, Authorization: `Bearer ${secret}`, 'Idempotency-Key': 'api-killed' },
      body: sale('api-killed'),
      leaseMs: LEASE_MS,
    });
    const { reservedId } = await claimOf();
    await expect.poll(async () => (await grantsFor('api-killed')).events, { timeout: 30_000 }).toBe(1);
    expect((await grantsFor('api-killed')).eventId).toBe(reservedId);

    // The retry came 65 s later, past the 60 s duplicate window: the window's claims are
    // gone, so the retry's report is queued afresh under the reserved id, and the worker, which
    // has registered that id already, must store and grant nothing again.
    await lapseDuplicateWindow();
    await expect.poll(async () => (await claimOf()).lapsed, { timeout: 10_000 }).toBe(true);
    const retry = await report('api-killed', sale('api-killed'));
    expect(retry.status).toBe(201);
    expect(String((await jsonOf(retry)).data.id)).toBe(reservedId);
    await expect.poll(eventJobsLeft, { timeout: 30_000 }).toBe(0);
    expect(await grantsFor('api-killed')).toMatchObject({ events: 1, entries: 1, points: 10 });
  }, 120_000);
});
