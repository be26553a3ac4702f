import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBatch, EventJob } from '../../shared/events/event-job.js';
import { duplicateIdentity } from '../../shared/events/duplicate-window.js';
import { createHarness, type Harness } from '../support/harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

function job(id: number, payload: Record<string, unknown>): EventJob {
  return {
    id,
    tenantId: '00000000-0000-4000-8000-000000000001',
    eventTypeId: '00000000-0000-4000-8000-000000000002',
    eventTypeName: 'SALE_MADE',
    userId: null,
    payload,
    reportedAt: new Date().toISOString(),
    occurredAt: null,
  };
}

// docs/events.md#duplicates: "Duplicates: same tenant, type, resolved subject and canonical payload (keys sorted) within 60 s."
// docs/operations.md#durability: "Killing any one process ... loses no accepted work ... and applies nothing twice."
describe('the events queue claims the duplicate window in the same transaction that queues the job', () => {
  const identityOf = (payload: unknown) => duplicateIdentity('tenant', 'SALE_MADE', 'subject', payload);
  const queuedReports = async () => {
    const jobs = await harness.context.queues.events.getJobs(['waiting']);
    return jobs.flatMap((queued) => (queued.data as EventBatch).events.map((event) => event.id));
  };

  it('accepts a first report, refuses a second with the same identity, and records only the first as accepted', async () => {
    const writer = harness.context.eventQueue;
    expect(await writer.enqueue(job(101, { a: 1, b: 2 }), identityOf({ a: 1, b: 2 }))).toBe(true);
    expect(await writer.enqueue(job(102, { b: 2, a: 1 }), identityOf({ b: 2, a: 1 }))).toBe(false);
    expect(await harness.context.acceptedReports.pending([101, 102])).toEqual(new Set([101]));
  });

  it('the same report sent again (as after a lost answer from Redis) is accepted, not a duplicate', async () => {
    const writer = harness.context.eventQueue;
    const first = job(201, { retried: true });
    expect(await writer.enqueue(first, identityOf({ retried: true }))).toBe(true);
    expect(await writer.enqueue(first, identityOf({ retried: true }))).toBe(true);
  });

  it('reports arriving together are queued as one job, duplicates included, each with its own answer', async () => {
    const writer = harness.context.eventQueue;
    const before = await harness.context.queues.events.count();
    const answers = await Promise.all([
      writer.enqueue(job(301, { n: 1 }), identityOf({ n: 1 })),
      writer.enqueue(job(302, { n: 2 }), identityOf({ n: 2 })),
      writer.enqueue(job(303, { n: 1 }), identityOf({ n: 1 })),
    ]);
    expect(answers).toEqual([true, true, false]);
    expect((await harness.context.queues.events.count()) - before).toBe(1);
    expect(await queuedReports()).toEqual(expect.arrayContaining([301, 302, 303]));
    expect(await harness.context.acceptedReports.pending([301, 302, 303])).toEqual(new Set([301, 302]));
  });

  it('a job BullMQ fails to add after the claims held gives them back: the report sent again is accepted, not a duplicate', async () => {
    const writer = harness.context.eventQueue;
    const idKey = `${harness.context.queues.events.qualifiedName}:id`;
    // BullMQ's add script counts job ids in this key: a hash there fails it at run time, after the claim script ran.
    const counter = await harness.context.redis.get(idKey);
    await harness.context.redis.del(idKey);
    await harness.context.redis.hset(idKey, 'broken', '1');
    await expect(
      writer.enqueue(job(401, { retried: 'after 500' }), identityOf({ retried: 'after 500' })),
    ).rejects.toThrow(/WRONGTYPE/);
    expect(await harness.context.acceptedReports.pending([401])).toEqual(new Set());
    await harness.context.redis.del(idKey);
    if (counter !== null) await harness.context.redis.set(idKey, counter);
    // The client's retry after the 500: a new id, the same identity.
    expect(await writer.enqueue(job(402, { retried: 'after 500' }), identityOf({ retried: 'after 500' }))).toBe(true);
    expect(await harness.context.acceptedReports.pending([401, 402])).toEqual(new Set([402]));
  });
});
