import type { Worker } from 'bullmq';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/platform/logging/logger.js';
import { RedisConnectionLog } from '../../shared/platform/redis/connection-log.js';
import { DecisionWaiter } from '../../shared/receipts/decision-waiter.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, dataOf, registerMember, type Harness, type Json, type TestTenant } from '../support/harness.js';
import { ManualClock } from '../support/manual-clock.js';

// docs/receipts.md#claims: "preparsed claims are reviewed by a worker, and the response waits for that
// decision up to RECEIPT_DECISION_WAIT_MS (default 2000)". The reviewer is started and stopped by
// each test. Each harness's waits read a clock of the test's own, which moves only when the test
// moves it: an answer that comes while its wait's time has not passed came from the decision's
// event, not from reading the claim once the wait ran out; and a wait that runs out is seen to
// run out by its configured bound, however slow the machine.
const LONG_WAIT_MS = 8000;
const SHORT_WAIT_MS = 400;
const waitingClock = new ManualClock();
const hurriedClock = new ManualClock();

let waiting: Harness;
let hurried: Harness;
const tenants = new Map<Harness, { tenant: TestTenant; admin: string }>();
let workers: Worker[] = [];

beforeAll(async () => {
  [waiting, hurried] = await Promise.all([
    createHarness({ receiptDecisionWaitMs: LONG_WAIT_MS, clock: waitingClock }),
    createHarness({ receiptDecisionWaitMs: SHORT_WAIT_MS, clock: hurriedClock }),
  ]);
  for (const harness of [waiting, hurried]) {
    const tenant = await harness.createTenant();
    const admin = await harness.adminToken(tenant, ['admin:receipts', 'admin:users']);
    await registerMember(harness, tenant, admin, 'shopper');
    tenants.set(harness, { tenant, admin });
  }
});
afterEach(async () => {
  await closeWorkers(workers);
  workers = [];
});
afterAll(async () => {
  await Promise.all([waiting.close(), hurried.close()]);
});

let claims = 0;
const field = (value: string) => ({ value, confidence: 0.95 });
function claimNow(harness: Harness) {
  claims += 1;
  const { tenant, admin } = tenants.get(harness)!;
  const body = {
    useParser: false,
    submitter: { authIdentifier: 'shopper' },
    ocrConfidence: 0.93,
    lineItems: [{ description: 'Oat milk', quantity: 1, unitPrice: 2.5, totalPrice: 2.5 }],
    serviceDate: field(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)),
    total: field('12.50'),
    merchantName: field('Corner Shop'),
    barcode: field(`50000000${claims}`),
  };
  return harness.request(tenant, 'POST', '/v1/receipts', { token: admin, body });
}

/** The claim's review job is on the queue: its wait has set its timer (decision-waiter.ts listens before it queues). */
async function reviewQueued(harness: Harness): Promise<void> {
  await expect
    .poll(async () => (await harness.context.queues.reviews.getJobCounts('waiting')).waiting, { timeout: 20_000 })
    .toBeGreaterThan(0);
}

/**
 * The waits were given the configured bound, and every one ended before it: by the decision's
 * event. The clock also times other bounded waits (the rate limit's call to Redis, for one), so
 * the decision waits are told apart by their bound.
 */
function expectEndedBeforeTheirBound(clock: ManualClock): void {
  const waits = clock.timers.filter((timer) => timer.ms === LONG_WAIT_MS);
  expect(waits.length).toBeGreaterThan(0);
  expect(waits.map((timer) => timer.state)).toEqual(waits.map(() => 'cancelled'));
}

describe('POST /v1/receipts waits for the automated decision up to RECEIPT_DECISION_WAIT_MS', () => {
  it('answers with the decision as soon as it comes, for a claim queued before the reviewer started', async () => {
    const answering = claimNow(waiting);
    await reviewQueued(waiting);
    workers = startWorkers(waiting.context, ['reviews']);
    const answer = await answering;
    expect(answer.status).toBe(201);
    expectEndedBeforeTheirBound(waitingClock);
    const claim = await dataOf<Json>(answer);
    expect(claim.status).toBe('AUTHORIZED');
    expect(claim.paramountReview).toMatchObject({ verdict: 'AUTHORIZE', reason: 'VALID_DATA', isAutomated: true });
  });

  it('answers each of many claims decided at once with its own decision, none left to the end of the wait', async () => {
    workers = startWorkers(waiting.context, ['reviews']);
    const answers = await Promise.all(Array.from({ length: 30 }, () => claimNow(waiting)));
    expectEndedBeforeTheirBound(waitingClock);
    const decided = await Promise.all(answers.map((answer) => dataOf<Json>(answer)));
    expect(decided.every((claim) => claim.status === 'AUTHORIZED' && claim.paramountReview?.isAutomated)).toBe(true);
    expect(new Set(decided.map((claim) => claim.id)).size).toBe(30);
  });

  it('answers the claim as stored, PENDING with paramountReview null, when no decision comes in time; the review follows', async () => {
    let answered = false;
    const answering = claimNow(hurried).finally(() => (answered = true));
    await reviewQueued(hurried);
    // No reviewer runs: the answer waits, on a timer of the configured bound, until that time has passed.
    expect(hurriedClock.pending().map((timer) => timer.ms)).toEqual([SHORT_WAIT_MS]);
    expect(answered).toBe(false);
    hurriedClock.advance(SHORT_WAIT_MS);
    const answer = await answering;
    expect(answer.status).toBe(201);
    const claim = await dataOf<Json>(answer);
    expect(claim).toMatchObject({ status: 'PENDING', paramountReview: null });

    workers = startWorkers(hurried.context, ['reviews']);
    const { tenant, admin } = tenants.get(hurried)!;
    await expect
      .poll(
        async () =>
          (await dataOf<Json>(await hurried.request(tenant, 'GET', `/v1/receipts/${claim.id}`, { token: admin })))
            .status,
        { timeout: 10_000 },
      )
      .toBe('AUTHORIZED');
  });
});

describe('a decision wait whose event stream cannot be read (Redis unreachable)', () => {
  it('queues every claim, bounds the first wait by its time, answers the next at once, and closes without hanging', async () => {
    const warnings: string[] = [];
    const logs = new Writable({
      write: (line: Buffer, _encoding, done) => (warnings.push(JSON.parse(line.toString()).msg), done()),
    });
    // Nothing listens on port 1: the reader's connection keeps retrying and never reads.
    const clock = new ManualClock();
    const logger = createLogger('warn', logs);
    const decisions = new DecisionWaiter(
      waiting.context.queues.reviews,
      'redis://127.0.0.1:1',
      new RedisConnectionLog(logger, clock),
      logger,
      clock,
    );
    const queued: string[] = [];
    const queue = (jobId: string) => async () => void queued.push(jobId);

    let firstAnswered = false;
    const first = decisions.wait('first', queue('first'), SHORT_WAIT_MS).finally(() => (firstAnswered = true));
    // The first claim waits for the reader by the bound it was given, and only that long.
    await expect.poll(() => clock.pending().map((timer) => timer.ms)).toEqual([SHORT_WAIT_MS]);
    expect(firstAnswered).toBe(false);
    clock.advance(SHORT_WAIT_MS);
    await expect(first).resolves.toBeUndefined();

    // The next sets no timer at all: it is queued and answered at once.
    const timersSet = clock.timers.length;
    await expect(decisions.wait('second', queue('second'), SHORT_WAIT_MS)).resolves.toBeUndefined();
    expect(clock.timers).toHaveLength(timersSet);
    expect(queued).toEqual(['first', 'second']);
    expect(warnings.filter((message) => message.startsWith('the review events are not readable yet'))).toHaveLength(1);

    // Closing does not wait for the reader to connect; a hang fails the test by its timeout.
    await decisions.close();
  });
});
