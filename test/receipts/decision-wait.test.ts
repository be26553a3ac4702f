import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, dataOf, registerMember, type Harness, type Json, type TestTenant } from '../support/harness.js';

// decisions.md §9: "preparsed claims are reviewed by a worker, and the response waits for that
// decision up to RECEIPT_DECISION_WAIT_MS (default 2000)". Here the wait is short and the reviewer
// is started and stopped by each test, to answer before and after the decision.
const WAIT_MS = 1500;

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness({ receiptDecisionWaitMs: WAIT_MS });
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:receipts', 'admin:users']);
  await registerMember(harness, tenant, admin, 'shopper');
});
afterEach(async () => {
  await closeWorkers(workers);
  workers = [];
});
afterAll(async () => {
  await harness.close();
});

let claims = 0;
const field = (value: string) => ({ value, confidence: 0.95 });
function claimNow() {
  claims += 1;
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

describe('POST /v1/receipts waits for the automated decision up to RECEIPT_DECISION_WAIT_MS', () => {
  it('answers with the decision when it comes during the wait, even for a claim queued before the reviewer started', async () => {
    const answering = claimNow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    workers = startWorkers(harness.context, ['reviews']);
    const started = performance.now();
    const answer = await answering;
    expect(answer.status).toBe(201);
    const claim = await dataOf<Json>(answer);
    expect(claim.status).toBe('AUTHORIZED');
    expect(claim.paramountReview).toMatchObject({ verdict: 'AUTHORIZE', reason: 'VALID_DATA', isAutomated: true });
    expect(performance.now() - started).toBeLessThan(WAIT_MS);
  });

  it('answers the claim as stored, still PENDING with paramountReview null, when no decision comes in time; the review follows', async () => {
    const answer = await claimNow();
    expect(answer.status).toBe(201);
    const claim = await dataOf<Json>(answer);
    expect(claim).toMatchObject({ status: 'PENDING', paramountReview: null });

    workers = startWorkers(harness.context, ['reviews']);
    await expect
      .poll(async () => (await dataOf<Json>(await harness.request(tenant, 'GET', `/v1/receipts/${claim.id}`, { token: admin }))).status, { timeout: 10_000 })
      .toBe('AUTHORIZED');
  });

  it('answers every one of many claims decided at once with its own decision', async () => {
    workers = startWorkers(harness.context, ['reviews']);
    const answers = await Promise.all(Array.from({ length: 30 }, () => claimNow()));
    const decided = await Promise.all(answers.map((answer) => dataOf<Json>(answer)));
    expect(decided.every((claim) => claim.status === 'AUTHORIZED' && claim.paramountReview?.isAutomated)).toBe(true);
    expect(new Set(decided.map((claim) => claim.id)).size).toBe(30);
  });
});
