import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job, type Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicateIdentity } from '../../shared/events/duplicate-window.js';
import type { EventJob } from '../../shared/events/event-job.js';
import { Order } from '../../shared/orders/order.entity.js';
import { queueCatalog } from '../../shared/job-catalog.js';
import { startWorker } from '../../shared/platform/queues/worker-runner.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { receiptJobId } from '../../shared/receipts/receipt-job.js';
import { Review } from '../../shared/receipts/review.entity.js';
import {
  recoverStranded,
  recoveryDependencies,
  type RecoveryDependencies,
} from '../../shared/recovery/recover-stranded.js';
import { User } from '../../shared/users/user.entity.js';
import { scheduleRecovery } from '../../workers/recovery.js';
import { closeWorkers, startWorkers, workerDependencies } from '../../workers/start-workers.js';
import { storeClaim } from '../support/receipts.js';
import {
  createHarness,
  dataOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let member: User;
let deps: RecoveryDependencies;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:reactors', 'admin:events']);
  await registerMember(harness, tenant, admin, 'shopper');
  for (const eventType of ['ORDER_PLACED', 'RECEIPT_REVIEWED']) {
    await harness.request(tenant, 'POST', '/v1/reactors', {
      token: admin,
      body: {
        name: `Ten for ${eventType}`,
        eventType,
        reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
      },
    });
  }
  member = await harness.context.orm.em.fork().findOneOrFail(User, { tenant: tenant.id, authIdentifier: 'shopper' });
  const { context } = harness;
  deps = recoveryDependencies(context);
  workers = startWorkers(context, ['events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

/** A claim as a crash right after its commit leaves it: stored, its next step never queued. */
function strandedClaim(parsed: boolean): Promise<Receipt> {
  return storeClaim(
    harness,
    tenant,
    parsed
      ? { status: 'AUTHORIZED', statusVersion: 1, merchantName: null }
      : { parsedAt: null, ocrConfidence: null, serviceDate: null, total: null, merchantName: null },
  );
}

const registered = async (eventId: number) =>
  (await queryOne(harness, 'select count(*)::int as n from event where id = ?', [eventId])).n as number;
const points = async () =>
  (await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/users/shopper/wallet', { token: admin })))
    .points as number;

/** The job as a worker that gave up on its last attempt leaves it: failed for good. */
async function failForGood(queue: 'reviews' | 'ocr' | 'events', job: Job, reason: string): Promise<void> {
  const failing = startWorker(
    queue,
    queueCatalog[queue],
    async () => {
      throw new UnrecoverableError(reason);
    },
    workerDependencies(harness.context),
  );
  await expect.poll(() => job.getState(), { timeout: 5000 }).toBe('failed');
  await failing.close();
}

// docs/operations.md#durability: "An accepted request is never lost: what is answered 201 or 202 is either committed in PostgreSQL or on a
// BullMQ queue"; the recovery sweep closes the window between the two.
describe('the recovery sweep', () => {
  it('runs on one schedule however many workers ask for it', async () => {
    await scheduleRecovery(harness.context);
    await scheduleRecovery(harness.context);
    const schedulers = await harness.context.queues.recovery.getJobSchedulers();
    expect(schedulers).toEqual([expect.objectContaining({ key: 'recover-stranded', every: 30_000 })]);
  });

  it('queues again a claim never queued for reading, and a parsed claim never queued for review', async () => {
    const unread = await strandedClaim(false);
    const undecided = await strandedClaim(true);
    // Within the grace time, nothing counts as stranded: its job may simply be on its way.
    expect(await recoverStranded(deps)).toMatchObject({ images: 0, reviews: 0 });
    const recovered = await recoverStranded(deps, 0);
    expect(recovered.images).toBeGreaterThanOrEqual(1);
    expect(await harness.context.queues.ocr.getJob(receiptJobId('ocr', unread.id))).toBeDefined();
    expect(await harness.context.queues.reviews.getJob(receiptJobId('review', undecided.id))).toBeDefined();
  });

  it('retries a job that failed for good rather than leave it blocking its claim', async () => {
    const claim = await strandedClaim(true);
    const job = await harness.context.queues.reviews.add(
      'review',
      { tenantId: tenant.id, receiptId: claim.id },
      { jobId: receiptJobId('review', claim.id) },
    );
    await failForGood('reviews', job, 'the database was down through every attempt');
    await recoverStranded(deps, 0);
    expect(await (await harness.context.queues.reviews.getJob(job.id!))!.getState()).toBe('waiting');
  });

  it('sends a claim whose image failed to be read through every attempt to a person, instead of reading it forever', async () => {
    const claim = await strandedClaim(false);
    const job = await harness.context.queues.ocr.add(
      'read',
      { tenantId: tenant.id, receiptId: claim.id },
      { jobId: receiptJobId('ocr', claim.id) },
    );
    await failForGood('ocr', job, 'the reader crashed on this image');
    await recoverStranded(deps, 0);
    const stored = await harness.context.orm.em.fork().findOneOrFail(Receipt, { id: claim.id });
    expect(stored.parseError).toMatch(/could not be read: the reader crashed/);
    expect(await harness.context.queues.reviews.getJob(receiptJobId('review', claim.id))).toBeDefined();
  });

  it('leaves alone a decision whose type the tenant had deactivated: it was never to be reported', async () => {
    const quiet = await harness.createTenant();
    const quietAdmin = await harness.adminToken(quiet, ['admin:users', 'admin:receipts', 'admin:event_types']);
    await registerMember(harness, quiet, quietAdmin, 'shopper');
    await harness.request(quiet, 'PATCH', '/v1/event_types/RECEIPT_REVIEWED', {
      token: quietAdmin,
      body: { isActive: false },
    });
    const claimed = await harness.request(quiet, 'POST', '/v1/receipts', {
      token: quietAdmin,
      body: { useParser: true, pictureUrl: 'https://receipts.example/q.png', submitter: { authIdentifier: 'shopper' } },
    });
    const { id } = await dataOf<{ id: string }>(claimed);
    const review = await dataOf<{ id: string }>(
      await harness.request(quiet, 'POST', `/v1/receipts/${id}/reviews`, {
        token: quietAdmin,
        body: { verdict: 'AUTHORIZE', reason: 'VERIFIED' },
      }),
    );
    expect(await harness.context.orm.em.fork().findOneOrFail(Review, { id: review.id })).toMatchObject({
      eventId: null,
      statusVersion: 1,
    });
  });

  it('queues the event of an order and of a review whose event was never queued, and registers each once', async () => {
    const em = harness.context.orm.em.fork();
    const [orderEvent, reviewEvent] = [
      await harness.context.eventIds.allocate(),
      await harness.context.eventIds.allocate(),
    ];
    em.create(Order, {
      id: randomUUID(),
      tenant: tenant.id,
      transactionId: 'T-LOST',
      locationId: 'STORE-1',
      cashierId: null,
      total: 20,
      subtotal: null,
      currency: null,
      lineItems: [],
      occurredAt: null,
      submitter: member.id,
      eventId: orderEvent,
    } as never);
    const receipt = await strandedClaim(true);
    em.create(Review, {
      id: randomUUID(),
      tenant: tenant.id,
      receipt: receipt.id,
      verdict: 'AUTHORIZE',
      reason: 'VERIFIED',
      isAutomated: false,
      reviewer: null,
      comment: null,
      checks: [],
      ruleSetId: null,
      ruleEngineResult: null,
      eventId: reviewEvent,
      statusVersion: 1,
    } as never);
    await em.flush();

    await recoverStranded(deps, 0);
    await recoverStranded(deps, 0);
    await expect.poll(() => registered(orderEvent), { timeout: 5000 }).toBe(1);
    await expect.poll(() => registered(reviewEvent), { timeout: 5000 }).toBe(1);
    const order = await queryOne(harness, 'select payload, user_id from event where id = ?', [orderEvent]);
    expect(order).toMatchObject({
      payload: { transactionId: 'T-LOST', locationId: 'STORE-1', total: 20 },
      user_id: member.id,
    });
    // Registered once, sweeps after it find nothing to do.
    await expect.poll(points, { timeout: 5000 }).toBe(20);
    expect(await recoverStranded(deps, 0)).toMatchObject({ reviewEvents: 0, orderEvents: 0 });
    expect(await points()).toBe(20);
  });

  it('retries a job of reported events that failed for good (stalled too often, say), registering what it still holds', async () => {
    const other = await registerMember(harness, tenant, admin, 'till-shopper');
    const found = (await harness.context.eventTypes.find(tenant.id, 'ORDER_PLACED'))!;
    const report: EventJob = {
      id: await harness.context.eventIds.allocate(),
      tenantId: tenant.id,
      eventTypeId: found.type.id,
      eventTypeName: 'ORDER_PLACED',
      userId: other.id,
      payload: { transactionId: 'T-FAILED' },
      reportedAt: new Date().toISOString(),
      occurredAt: null,
    };
    const events = workers[0]!;
    await events.pause();
    try {
      expect(
        await harness.context.eventQueue.enqueue(
          report,
          duplicateIdentity(tenant.id, 'ORDER_PLACED', other.id, report.payload),
        ),
      ).toBe(true);
      const [job] = await harness.context.queues.events.getJobs(['waiting']);
      await failForGood('events', job!, 'its worker stalled more often than allowed');
    } finally {
      events.resume();
    }
    expect((await recoverStranded(deps, 0)).reportJobs).toBe(1);
    await expect.poll(() => registered(report.id), { timeout: 5000 }).toBe(1);
    expect(await recoverStranded(deps, 0)).toMatchObject({ reportJobs: 0 });
  });
});
