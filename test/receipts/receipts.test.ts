import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { registerEvents, registrationDependencies } from '../../shared/reactors/register-events.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { Review } from '../../shared/receipts/review.entity.js';
import { reviewAutomatically, reviewDependencies } from '../../shared/receipts/review-service.js';
import { createMetrics } from '../../shared/platform/metrics/metrics.js';
import { metricValue } from '../support/metric-samples.js';
import { storeReviewOfUnreviewedClaim } from '../../shared/receipts/store-unreviewed-claim-review.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { storeClaim } from '../support/receipts.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import { customRule, totalOver } from '../support/rule-definitions.js';
import { jobEvents } from '../../shared/events/event-job.js';

let harness: Harness;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  workers = startWorkers(harness.context, ['reviews', 'events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const field = (value: string, confidence = 0.95) => ({ value, confidence });

/** A tenant with a member and an admin token; `configuration` holds its review settings. */
async function world(configuration: Record<string, unknown> = {}) {
  const tenant = await harness.createTenant({ configuration });
  const admin = await harness.adminToken(tenant, [
    'admin:receipts',
    'admin:users',
    'admin:reactors',
    'admin:events',
    'admin:rules',
  ]);
  await registerMember(harness, tenant, admin, 'shopper');
  return { tenant, admin };
}

let claimCount = 0;
function preparsed(overrides: Record<string, unknown> = {}) {
  claimCount += 1;
  return {
    useParser: false,
    submitter: { authIdentifier: 'shopper' },
    ocrConfidence: 0.93,
    serviceDate: field(day(-1)),
    serviceTime: field('14:32'),
    total: field('12.50'),
    subtotal: field('11.00'),
    merchantName: field('Corner Shop'),
    barcode: field(`40000000${claimCount}`),
    formatSlug: 'corner-shop-till',
    lineItems: [{ description: 'Oat milk', identifier: 'SKU-OAT', quantity: 1, unitPrice: 2.5, totalPrice: 2.5 }],
    ...overrides,
  };
}

/** A tenant whose reactor grants ten points per authorized receipt: its wallet and ledger to read. */
async function rewardedWorld() {
  const { tenant, admin } = await world();
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'Ten per authorized receipt',
      eventType: 'RECEIPT_REVIEWED',
      conditions: { all: [{ fact: 'payload', path: '$.status', operator: 'equal', value: 'AUTHORIZED' }] },
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
    },
  });
  const points = async () =>
    (await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/users/shopper/wallet', { token: admin }))).points;
  const ledger = () =>
    harness.context.orm.em
      .fork()
      .getConnection()
      .execute(
        `select kind, points::int, event_id, reverses_entry_id from ledger_entry where tenant_id = ? order by created_at, kind`,
        [tenant.id],
      );
  return { tenant, admin, points, ledger };
}

const claim = (tenant: TestTenant, token: string, body: unknown) =>
  harness.request(tenant, 'POST', '/v1/receipts', { token, body });
const decisionOf = async (tenant: TestTenant, token: string, body: unknown) => {
  const response = await claim(tenant, token, body);
  expect(response.status).toBe(201);
  return dataOf<Json>(response);
};

describe('POST /v1/receipts, preparsed mode (docs/receipts.md#claims: "the response waits for that decision")', () => {
  it('answers 201 with the automated decision; the review keeps its checks and the rule engine result', async () => {
    const { tenant, admin } = await world();
    const decided = await decisionOf(tenant, admin, preparsed());
    expect(decided).toMatchObject({
      id: expect.any(String),
      status: 'AUTHORIZED',
      paramountReview: { verdict: 'AUTHORIZE', reason: 'VALID_DATA', isAutomated: true, reviwer: null },
    });
    const receipt = await dataOf<Json>(
      await harness.request(tenant, 'GET', `/v1/receipts/${decided.id}`, { token: admin }),
    );
    expect(receipt).toMatchObject({
      status: 'AUTHORIZED',
      submitter: { authIdentifier: 'shopper' },
      ocrConfidence: '0.93',
      timezone: 'UTC',
      serviceDate: day(-1),
      serviceTime: '14:32:00',
      servedAt: `${day(-1)}T14:32:00.000Z`,
      total: 12.5,
      subtotal: 11,
      merchantName: 'Corner Shop',
      formatSlug: 'corner-shop-till',
    });
    expect(receipt.paramountReview.checks.map((check: Json) => check.check)).toEqual([
      'DUPLICATE',
      'INVALID_DATE',
      'INVALID_MERCHANT',
      'INVALID_VENUE',
      'FORMAT_SUBMISSION_LIMIT_EXCEEDED',
      'MERCHANT_SUBMISSION_LIMIT_EXCEEDED',
      'INSUFFICIENT_DATA',
      'RULE_ENGINE',
      'SPOT_CHECK',
    ]);
    // The answer's review, handed over by the reviewer, is the one stored, to the order of its keys.
    expect(JSON.stringify(receipt.paramountReview)).toBe(JSON.stringify(decided.paramountReview));
  });

  it('reports RECEIPT_REVIEWED with the payload of docs/events.md#system-event-types, and a reactor on it grants points', async () => {
    const { tenant, admin } = await rewardedWorld();
    const decided = await decisionOf(tenant, admin, preparsed({ currency: field('GBP') }));
    const events = await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 1);
    expect(events[0].payload).toEqual({
      receiptId: decided.id,
      status: 'AUTHORIZED',
      verdict: 'AUTHORIZE',
      reason: 'VALID_DATA',
      total: 12.5,
      subtotal: 11,
      // Issue 22: the currency goes with the totals it is the currency of.
      currency: 'GBP',
      merchantName: 'Corner Shop',
      serviceDate: day(-1),
      servedAt: `${day(-1)}T14:32:00.000Z`,
      lineItems: [{ description: 'Oat milk', identifier: 'SKU-OAT', quantity: 1, unitPrice: 2.5, totalPrice: 2.5 }],
    });
    expect(events[0].subject.authIdentifier).toBe('shopper');
    const reactions = await dataOf<Json>(
      await harness.request(tenant, 'GET', `/v1/events/${events[0].id}/reactions?wait=5000`),
    );
    expect(reactions.totalPoints).toBe(10);
  });
});

// Issue 32, Regions: "the parse keeps both when both are printed (merchantName and a merchantLegalName …)".
// docs/receipts.md#claims: a preparsed claim gives `merchantLegalName` as `{value, confidence}` like `merchantName`;
// #records, #the-transaction and docs/events.md#system-event-types show it wherever `merchantName` is.
describe("the merchant's legal name in a preparsed claim", () => {
  const legalName = 'Castle Blue S/B';

  it('is stored with its confidence, shown on the receipt, filtered on in the list, and carried by RECEIPT_REVIEWED', async () => {
    const { tenant, admin } = await world();
    const withLegal = await decisionOf(tenant, admin, preparsed({ merchantLegalName: field(` ${legalName} `, 0.7) }));
    const without = await decisionOf(tenant, admin, preparsed());
    const read = async (path: string) => dataOf<Json>(await harness.request(tenant, 'GET', path, { token: admin }));

    expect(await read(`/v1/receipts/${withLegal.id}`)).toMatchObject({
      merchantName: 'Corner Shop',
      merchantLegalName: legalName,
    });
    expect((await read(`/v1/receipts/${without.id}`)).merchantLegalName).toBeNull();
    const byLegalName = await read(
      `/v1/receipts?filter=${encodeURIComponent(`merchantLegalName:(eq:'${legalName}')`)}`,
    );
    expect(byLegalName.map((item: Json) => item.id)).toEqual([withLegal.id]);
    expect(
      (await queryOne(harness, 'select field_confidences from receipt where id = ?', [withLegal.id])).field_confidences,
    ).toMatchObject({ merchantName: 0.95, merchantLegalName: 0.7 });

    const events = await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 2);
    const payloadOf = (id: string) => events.find((event) => event.payload.receiptId === id)!.payload;
    expect(payloadOf(withLegal.id)).toMatchObject({ merchantName: 'Corner Shop', merchantLegalName: legalName });
    // "Absent values are omitted, never invented."
    expect(payloadOf(without.id)).not.toHaveProperty('merchantLegalName');
  });

  it("is in the rule engine's $.transaction", async () => {
    const { tenant, admin } = await world();
    const byLegalName = {
      all: [{ fact: 'request', path: '$.transaction.merchantLegalName', operator: 'equal', value: legalName }],
    };
    await harness.request(tenant, 'POST', '/v1/transactions-rule-engine/rule-sets', {
      token: admin,
      body: {
        isActive: true,
        ruleDefinitions: [
          customRule('LEGAL_NAME_SEEN', 1, byLegalName, [
            { key: 'verdict', value: 'REJECT' },
            { key: 'reason', value: 'SUSPICIOUS' },
          ]),
        ],
      },
    });
    expect(await decisionOf(tenant, admin, preparsed({ merchantLegalName: field(legalName) }))).toMatchObject({
      status: 'REJECTED',
      paramountReview: { reason: 'SUSPICIOUS' },
    });
    expect((await decisionOf(tenant, admin, preparsed())).status).toBe('AUTHORIZED');
  });
});

/**
 * Every job this file's workers would run has run: nothing waits, runs or is scheduled on the
 * review and event queues. What a review or a registration would still do has been done, so a
 * check that nothing more happened holds for good, not only so far.
 */
async function queuesDrained(): Promise<void> {
  const unfinished = async () => {
    const counts = await Promise.all(
      [harness.context.queues.reviews, harness.context.queues.events].map((queue) =>
        queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized'),
      ),
    );
    return counts.reduce((sum, count) => sum + Object.values(count).reduce((a, b) => a + b, 0), 0);
  };
  await expect.poll(unfinished, { timeout: 20_000 }).toBe(0);
}

async function waitForEvents(tenant: TestTenant, admin: string, type: string, count: number): Promise<Json[]> {
  const filter = encodeURIComponent(`type.name:(eq:'${type}')`);
  for (let attempt = 0; attempt < 100; attempt++) {
    const events = await dataOf<Json[]>(
      await harness.request(tenant, 'GET', `/v1/events?filter=${filter}&sort=reportedAt&order=ASC`, { token: admin }),
    );
    if (events.length >= count) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${count} ${type} events registered`);
}

describe('many claims at once', () => {
  // More reviews in flight (the reviewer runs 32 at once) than the pool has connections (10): a
  // review that held a connection while asking for another would starve the pool.
  it('are all decided, none waiting on a connection another review holds', async () => {
    const { tenant, admin } = await world();
    const answers = await Promise.all(Array.from({ length: 60 }, () => decisionOf(tenant, admin, preparsed())));
    expect(answers.filter((answer) => answer.status === 'AUTHORIZED')).toHaveLength(60);
  });
});

// Who may claim and read receipts: docs/receipts.md#claims and docs/api-conventions.md#scopes.
describe('who may claim', () => {
  it('a user claims for themself with an image, answered at once with paramountReview null', async () => {
    const { tenant } = await world();
    const token = await harness.userToken(tenant, 'shopper');
    const response = await claim(tenant, token, {
      useParser: true,
      pictureUrl: 'https://receipts.example/1.png',
      metadata: { source: 'app', campaignId: 'autumn' },
    });
    expect(response.status).toBe(201);
    expect(await dataOf(response)).toEqual({ id: expect.any(String), status: 'PENDING', paramountReview: null });
  });

  it.each([
    [
      'a user token in preparsed mode ("Preparsed mode accepts admin tokens only")',
      'user',
      preparsed(),
      401,
      'UnauthorizedError',
    ],
    [
      'a user token naming another submitter',
      'user',
      { useParser: true, pictureUrl: 'https://receipts.example/2.png', submitter: { authIdentifier: 'someone-else' } },
      400,
      'ValidationError',
    ],
    [
      'a user token of no member',
      'stranger',
      { useParser: true, pictureUrl: 'https://receipts.example/3.png' },
      404,
      'NotFoundError',
    ],
    [
      'an admin token without submitter ("required when an admin token is used")',
      'admin',
      { useParser: true, pictureUrl: 'https://receipts.example/4.png' },
      400,
      'ValidationError',
    ],
    [
      'an admin token naming no member',
      'admin',
      preparsed({ submitter: { authIdentifier: 'nobody' } }),
      404,
      'NotFoundError',
    ],
    ['an admin token without admin:receipts', 'other-admin', preparsed(), 401, 'UnauthorizedError'],
    [
      'a preparsed claim without ocrConfidence',
      'admin',
      { ...preparsed(), ocrConfidence: undefined },
      400,
      'ValidationError',
    ],
    [
      'a confidence over 1 (docs/receipts.md#claims: 0 to 1)',
      'admin',
      preparsed({ total: field('3.00', 96) }),
      400,
      'ValidationError',
    ],
    ['a field outside the document', 'admin', preparsed({ loyaltyEmail: 'x@example.com' }), 400, 'ValidationError'],
  ])('refuses %s', async (_case, who, body, status, name) => {
    const { tenant, admin } = await world();
    const tokens: Record<string, string> = {
      user: await harness.userToken(tenant, 'shopper'),
      stranger: await harness.userToken(tenant, 'stranger'),
      admin,
      'other-admin': await harness.adminToken(tenant, ['admin:users']),
    };
    const response = await claim(tenant, tokens[who]!, body);
    expect(response.status).toBe(status);
    expect((await jsonOf(response)).data.name).toBe(name);
  });
});

// docs/receipts.md#automated-checks: "Automated checks, in order".
describe('the automated checks', () => {
  it('DUPLICATE: the same merchant, date, total and barcode as a claim not rejected', async () => {
    const { tenant, admin } = await world();
    const first = preparsed();
    expect((await decisionOf(tenant, admin, first)).status).toBe('AUTHORIZED');
    const again = await decisionOf(tenant, admin, { ...first, merchantName: field('CORNER SHOP') });
    expect(again).toMatchObject({ status: 'REJECTED', paramountReview: { verdict: 'REJECT', reason: 'DUPLICATE' } });
    // Another barcode is another receipt.
    expect((await decisionOf(tenant, admin, preparsed())).status).toBe('AUTHORIZED');
  });

  // Issue 22: "A preparsed or parsed claim with the same submitter, merchant, date, time and total as an earlier
  // claim not rejected is DUPLICATE even without a barcode or transaction id (today the same preparsed claim is
  // authorized twice)."
  it('DUPLICATE: the same submitter, merchant, date, time and total, with nothing to tell them apart', async () => {
    const { tenant, admin } = await world();
    await registerMember(harness, tenant, admin, 'other-shopper');
    const unmarked = preparsed({ barcode: undefined });
    expect((await decisionOf(tenant, admin, unmarked)).status).toBe('AUTHORIZED');
    const again = await decisionOf(tenant, admin, unmarked);
    expect(again).toMatchObject({ status: 'REJECTED', paramountReview: { verdict: 'REJECT', reason: 'DUPLICATE' } });
    // One barcode beside none tells nothing apart either.
    const marked = await decisionOf(tenant, admin, { ...unmarked, barcode: field('4000000999') });
    expect(marked).toMatchObject({ status: 'REJECTED', paramountReview: { reason: 'DUPLICATE' } });
    // Another time, another total, or another submitter is another receipt.
    expect((await decisionOf(tenant, admin, { ...unmarked, serviceTime: field('14:33') })).status).toBe('AUTHORIZED');
    expect((await decisionOf(tenant, admin, { ...unmarked, total: field('12.60') })).status).toBe('AUTHORIZED');
    expect(
      (await decisionOf(tenant, admin, { ...unmarked, submitter: { authIdentifier: 'other-shopper' } })).status,
    ).toBe('AUTHORIZED');
  });

  it.each([
    ['INVALID_DATE: a date in the future', {}, { serviceDate: field(day(2)) }, 'REJECT', 'INVALID_DATE'],
    [
      'INVALID_DATE: older than review.maxAgeDays',
      { review: { maxAgeDays: 10 } },
      { serviceDate: field(day(-11)) },
      'REJECT',
      'INVALID_DATE',
    ],
    [
      'INVALID_MERCHANT: outside review.merchants',
      { review: { merchants: ['Big Market'] } },
      {},
      'REJECT',
      'INVALID_MERCHANT',
    ],
    [
      'INVALID_VENUE: made at none of the venues (review.requireVenue)',
      { review: { requireVenue: true } },
      { locationIdentifier: field('STORE-99') },
      'REJECT',
      'INVALID_VENUE',
    ],
    ['INSUFFICIENT_DATA: no total', {}, { total: undefined }, 'ABSTAIN', 'INSUFFICIENT_DATA'],
    ['INSUFFICIENT_DATA: no date', {}, { serviceDate: field('yesterday') }, 'ABSTAIN', 'INSUFFICIENT_DATA'],
    [
      'INSUFFICIENT_DATA: confidence under review.minConfidence',
      { review: { minConfidence: 0.95 } },
      {},
      'ABSTAIN',
      'INSUFFICIENT_DATA',
    ],
    [
      // Issue 22: "a field the parser is unsure of is left empty rather than guessed, so the reviewer answers INSUFFICIENT_DATA instead of authorizing a wrong total".
      "INSUFFICIENT_DATA: the total's own confidence under review.minConfidence",
      {},
      { total: field('12.50', 0.4) },
      'ABSTAIN',
      'INSUFFICIENT_DATA',
    ],
    [
      "INSUFFICIENT_DATA: the date's own confidence under review.minConfidence",
      { review: { minConfidence: 0.8 } },
      { serviceDate: field(day(-1), 0.7) },
      'ABSTAIN',
      'INSUFFICIENT_DATA',
    ],
    [
      'FLAGGED_FOR_SPOT_CHECK at review.spotCheckRate 1',
      { review: { spotCheckRate: 1 } },
      {},
      'ABSTAIN',
      'FLAGGED_FOR_SPOT_CHECK',
    ],
  ])('%s', async (_case, configuration, overrides, verdict, reason) => {
    const { tenant, admin } = await world(configuration);
    const decided = await decisionOf(tenant, admin, preparsed(overrides));
    // "an automated ABSTAIN means sent to manual review": the claim stays PENDING with the review shown.
    expect(decided).toMatchObject({
      status: verdict === 'REJECT' ? 'REJECTED' : 'PENDING',
      paramountReview: { verdict, reason, isAutomated: true },
    });
  });

  // Issue 32: "the parse keeps both when both are printed": a tenant may list the trading name or the legal one.
  it('INVALID_MERCHANT passes a claim whose legal name, read beside the trading name, is one of review.merchants', async () => {
    const { tenant, admin } = await world({ review: { merchants: ['Corner Shop Holdings Ltd'] } });
    const legal = { merchantLegalName: field('CORNER SHOP HOLDINGS LTD') };
    expect(await decisionOf(tenant, admin, preparsed(legal))).toMatchObject({
      status: 'AUTHORIZED',
      paramountReview: { reason: 'VALID_DATA' },
    });
    expect(await decisionOf(tenant, admin, preparsed())).toMatchObject({
      status: 'REJECTED',
      paramountReview: { reason: 'INVALID_MERCHANT' },
    });
  });

  it('DUPLICATE: the same merchant, date, total and transaction id (read from an image) as a claim not rejected', async () => {
    const { tenant } = await world();
    // Metrics of its own: the reviews' counter shows these two reviews alone.
    const metrics = createMetrics();
    const deps = reviewDependencies({ ...harness.context, metrics });
    const read = { transactionId: 'TX-77', merchantName: 'Corner Shop ', createdAt: new Date(Date.now() - 1000) };
    const first = await storeClaim(harness, tenant, read);
    const second = await storeClaim(harness, tenant, { ...read, merchantName: 'corner shop', createdAt: new Date() });
    expect(await reviewAutomatically(deps, tenant.id, first.id)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await reviewAutomatically(deps, tenant.id, second.id)).toMatchObject({
      status: 'REJECTED',
      paramountReview: { reason: 'DUPLICATE' },
    });
    // docs/operations.md#metrics: each review stored is counted by its verdict.
    for (const verdict of ['AUTHORIZE', 'REJECT'])
      expect(await metricValue(metrics, 'tally_receipt_reviews_total', { verdict, reviewer: 'automated' })).toBe(1);
    // A rerun stores nothing, and counts nothing.
    await reviewAutomatically(deps, tenant.id, second.id);
    expect(
      await metricValue(metrics, 'tally_receipt_reviews_total', { verdict: 'REJECT', reviewer: 'automated' }),
    ).toBe(1);
  });

  it('DUPLICATE: of two claims of one image, the one decided second, even when it was made first', async () => {
    const { tenant } = await world();
    // Claim A was made first, but its image was read last (its fetch was retried, say). Their barcodes
    // differ, so only the image tells them to be one receipt.
    const claims = [
      await storeClaim(harness, tenant, {
        imageHash: 'same-image',
        barcode: '5000000001',
        createdAt: new Date(Date.now() - 1000),
      }),
      await storeClaim(harness, tenant, {
        imageHash: 'same-image',
        barcode: '5000000002',
        createdAt: new Date(Date.now() - 999),
      }),
    ];
    const em = harness.context.orm.em.fork();
    const deps = reviewDependencies(harness.context);
    // While B is decided, A's image is not read yet: no hash to compare.
    await em.nativeUpdate(Receipt, { id: claims[0]!.id }, { imageHash: null, parsedAt: null });
    expect(await reviewAutomatically(deps, tenant.id, claims[1]!.id)).toMatchObject({
      status: 'AUTHORIZED',
      paramountReview: { verdict: 'AUTHORIZE' },
    });
    await em.nativeUpdate(Receipt, { id: claims[0]!.id }, { imageHash: 'same-image', parsedAt: new Date() });
    expect(await reviewAutomatically(deps, tenant.id, claims[0]!.id)).toMatchObject({
      status: 'REJECTED',
      paramountReview: { verdict: 'REJECT', reason: 'DUPLICATE' },
    });
  });

  it('a review job run again (a retry, a stalled job) stores nothing twice and reports the same event', async () => {
    const { tenant, admin } = await world();
    const decided = await decisionOf(tenant, admin, preparsed());
    const deps = reviewDependencies(harness.context);
    // A rerun hands back no decision of its own: the claim may have been reviewed by hand since.
    expect(await reviewAutomatically(deps, tenant.id, decided.id)).toBeUndefined();
    expect(await reviewAutomatically(deps, tenant.id, decided.id)).toBeUndefined();
    const reviews = await dataOf<Json[]>(
      await harness.request(tenant, 'GET', `/v1/receipts/${decided.id}/reviews`, { token: admin }),
    );
    expect(reviews).toHaveLength(1);
    await queuesDrained();
    expect(await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 1)).toHaveLength(1);
  });

  it('an automated review that comes after a manual AUTHORIZE is stored, and the manual one keeps its say (docs/receipts.md#manual-reviews)', async () => {
    const { tenant, admin } = await world();
    const receipt = await storeClaim(harness, tenant);
    expect(
      (
        await harness.request(tenant, 'POST', `/v1/receipts/${receipt.id}/reviews`, {
          token: admin,
          body: { verdict: 'AUTHORIZE', reason: 'VERIFIED' },
        })
      ).status,
    ).toBe(201);
    // No decision of its own to show: the claim's paramount review is the manual one.
    expect(await reviewAutomatically(reviewDependencies(harness.context), tenant.id, receipt.id)).toBeUndefined();
    const stored = await dataOf<Json>(
      await harness.request(tenant, 'GET', `/v1/receipts/${receipt.id}`, { token: admin }),
    );
    expect(stored).toMatchObject({
      status: 'AUTHORIZED',
      paramountReview: { isAutomated: false, verdict: 'AUTHORIZE' },
    });
    const reviews = await dataOf<Json[]>(
      await harness.request(tenant, 'GET', `/v1/receipts/${receipt.id}/reviews?order=ASC`, { token: admin }),
    );
    expect(reviews.map((entry: Json) => entry.isAutomated)).toEqual([false, true]);
  });

  it('the one-statement store stores nothing once the claim was reviewed after the decision read it', async () => {
    const { tenant } = await world();
    const receipt = await storeClaim(harness, tenant);
    const em = harness.context.orm.em.fork();
    // A manual review landed between the reviewer's read (statusVersion 0) and its store.
    await em.nativeUpdate(
      Receipt,
      { id: receipt.id },
      { status: 'REJECTED', statusVersion: 1, paramountReviewId: randomUUID() },
    );
    const review = em.create(
      Review,
      {
        id: randomUUID(),
        tenant: tenant.id,
        receipt: receipt.id,
        verdict: 'AUTHORIZE',
        reason: 'VALID_DATA',
        isAutomated: true,
        reviewer: null,
        comment: null,
        checks: [],
        ruleSetId: null,
        ruleEngineResult: null,
        eventId: null,
        statusVersion: 1,
        createdAt: new Date(),
      },
      { persist: false },
    );
    const change = {
      tenantId: tenant.id,
      receiptId: receipt.id,
      readStatusVersion: 0,
      next: { status: 'AUTHORIZED' as const, statusVersion: 1, paramountReviewId: review.id, updatedAt: new Date() },
      review,
    };
    expect(await storeReviewOfUnreviewedClaim(em, change)).toBeUndefined();
    expect(await em.fork().count(Review, { receipt: receipt.id })).toBe(0);
    expect(await em.fork().findOneOrFail(Receipt, { id: receipt.id })).toMatchObject({
      status: 'REJECTED',
      statusVersion: 1,
    });
  });

  it('a total too large to be true is left unread, not a failure', async () => {
    const { tenant, admin } = await world();
    expect(await decisionOf(tenant, admin, preparsed({ total: field('123456789012345') }))).toMatchObject({
      status: 'PENDING',
      paramountReview: { reason: 'INSUFFICIENT_DATA' },
    });
  });

  it('the venue check passes at a venue, by location identifier', async () => {
    const { tenant, admin } = await world({ review: { requireVenue: true } });
    await harness.request(tenant, 'POST', '/v1/venues', {
      token: admin,
      body: { name: 'High Street', identifiers: ['STORE-12'] },
    });
    expect((await decisionOf(tenant, admin, preparsed({ locationIdentifier: field('store-12') }))).status).toBe(
      'AUTHORIZED',
    );
  });

  it('FORMAT_ and MERCHANT_SUBMISSION_LIMIT_EXCEEDED: review.limits per user per day', async () => {
    const format = await world({ review: { limits: { perFormat: 2 } } });
    expect((await decisionOf(format.tenant, format.admin, preparsed())).status).toBe('AUTHORIZED');
    expect((await decisionOf(format.tenant, format.admin, preparsed())).status).toBe('AUTHORIZED');
    expect((await decisionOf(format.tenant, format.admin, preparsed())).paramountReview.reason).toBe(
      'FORMAT_SUBMISSION_LIMIT_EXCEEDED',
    );
    expect((await decisionOf(format.tenant, format.admin, preparsed({ formatSlug: 'other-till' }))).status).toBe(
      'AUTHORIZED',
    );
    const merchant = await world({ review: { limits: { perMerchant: 1 } } });
    expect((await decisionOf(merchant.tenant, merchant.admin, preparsed())).status).toBe('AUTHORIZED');
    expect(
      (await decisionOf(merchant.tenant, merchant.admin, preparsed({ merchantName: field('corner shop') })))
        .paramountReview.reason,
    ).toBe('MERCHANT_SUBMISSION_LIMIT_EXCEEDED');
  });

  it("the rule engine's verdict and reason; BASKET rules all failing; a throw", async () => {
    const { tenant, admin } = await world();
    const rule = (name: string, conditions: object, success: object[]) => customRule(name, 1, conditions, success);
    const bigTotal = totalOver(100);
    const set = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/transactions-rule-engine/rule-sets', {
        token: admin,
        body: {
          isActive: true,
          ruleDefinitions: [
            rule('TOO_BIG', bigTotal, [
              { key: 'verdict', value: 'REJECT' },
              { key: 'reason', value: 'SUSPICIOUS' },
            ]),
          ],
        },
      }),
    );
    expect(await decisionOf(tenant, admin, preparsed({ total: field('250.00') }))).toMatchObject({
      status: 'REJECTED',
      paramountReview: { reason: 'SUSPICIOUS' },
    });
    const fine = await decisionOf(tenant, admin, preparsed());
    expect(fine.status).toBe('AUTHORIZED');
    const reviews = await dataOf<Json[]>(
      await harness.request(tenant, 'GET', `/v1/receipts/${fine.id}/reviews`, { token: admin }),
    );
    expect(reviews[0]).toMatchObject({
      ruleSetId: set.id,
      ruleEngineResult: { result: {}, rules: [{ name: 'TOO_BIG', outcome: 'failure' }], stopped: false },
    });

    // "BASKET rules all failing is REJECT NO_QUALIFYING_PRODUCTS".
    const product = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/products', {
        token: admin,
        body: { name: 'Oat milk', identifiers: ['SKU-OAT'] },
      }),
    );
    const basket = {
      type: 'BASKET',
      name: 'Oat milk',
      priority: 1,
      configuration: { productId: product.id, isUnitPriceCheckNeeded: false },
      resultParams: { success: [], failure: [] },
    };
    await harness.request(tenant, 'PATCH', `/v1/transactions-rule-engine/rule-sets/${set.id}`, {
      token: admin,
      body: { ruleDefinitions: [basket] },
    });
    expect((await decisionOf(tenant, admin, preparsed())).status).toBe('AUTHORIZED');
    expect(
      await decisionOf(
        tenant,
        admin,
        preparsed({ lineItems: [{ description: 'Bread', identifier: 'SKU-BREAD', totalPrice: 3 }] }),
      ),
    ).toMatchObject({ status: 'REJECTED', paramountReview: { reason: 'NO_QUALIFYING_PRODUCTS' } });

    // "a throw is ABSTAIN RULE_ENGINE_THREW_ERROR": a set stored before a check would refuse it.
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute(
        `update rule_set set rules = jsonb_set(rules, '{0,ruleProperties,conditions}', '{"all":[{"fact":"request","path":"$.transaction.total","operator":"isHuge","value":1}]}') where id = ?`,
        [set.id],
      );
    harness.context.ruleEngine.forget(tenant.id);
    expect(await decisionOf(tenant, admin, preparsed())).toMatchObject({
      status: 'PENDING',
      paramountReview: { verdict: 'ABSTAIN', reason: 'RULE_ENGINE_THREW_ERROR' },
    });
  });
});

// docs/receipts.md#manual-reviews: "A manual AUTHORIZE or REJECT becomes the paramount review and sets the status; ABSTAIN changes nothing.
// Each status change to AUTHORIZED or REJECTED reports RECEIPT_REVIEWED … authorizing twice never grants twice."
describe('manual reviews', () => {
  it('set the status, report each change once, and are listed with the reviewer', async () => {
    const { tenant, admin } = await world({ review: { spotCheckRate: 1 } });
    const decided = await decisionOf(tenant, admin, preparsed());
    expect(decided.status).toBe('PENDING');
    const review = (body: object) =>
      harness.request(tenant, 'POST', `/v1/receipts/${decided.id}/reviews`, { token: admin, body });
    const statusOf = async () =>
      (await dataOf<Json>(await harness.request(tenant, 'GET', `/v1/receipts/${decided.id}`, { token: admin }))).status;

    const abstain = await review({ verdict: 'ABSTAIN', reason: 'OTHER', comment: 'not sure' });
    expect(abstain.status).toBe(201);
    expect(await dataOf(abstain)).toMatchObject({ id: expect.any(String), verdict: 'ABSTAIN', reason: 'OTHER' });
    expect(await statusOf()).toBe('PENDING');

    expect((await review({ verdict: 'AUTHORIZE', reason: 'VERIFIED' })).status).toBe(201);
    expect(await statusOf()).toBe('AUTHORIZED');
    await review({ verdict: 'AUTHORIZE', reason: 'VERIFIED' });
    await review({ verdict: 'REJECT', reason: 'SUSPICIOUS' });
    expect(await statusOf()).toBe('REJECTED');

    const events = await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 2);
    await queuesDrained();
    const settled = await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 2);
    expect(settled).toHaveLength(2);
    expect(events.map((event: Json) => event.payload.status)).toEqual(['AUTHORIZED', 'REJECTED']);

    const reviews = await dataOf<Json[]>(
      await harness.request(tenant, 'GET', `/v1/receipts/${decided.id}/reviews?order=ASC`, { token: admin }),
    );
    expect(reviews.map((entry: Json) => [entry.verdict, entry.isAutomated])).toEqual([
      ['ABSTAIN', true],
      ['ABSTAIN', false],
      ['AUTHORIZE', false],
      ['AUTHORIZE', false],
      ['REJECT', false],
    ]);
    expect(reviews[1]).toMatchObject({
      reviwer: { authIssuer: expect.any(String), authIdentifier: 'test-admin' },
      comment: 'not sure',
    });
    const receipt = await dataOf<Json>(
      await harness.request(tenant, 'GET', `/v1/receipts/${decided.id}`, { token: admin }),
    );
    expect(receipt.paramountReview).toMatchObject({ id: reviews[4].id, verdict: 'REJECT' });
  });

  it("an unknown receipt is 404; another tenant's too", async () => {
    const { tenant, admin } = await world();
    const decided = await decisionOf(tenant, admin, preparsed());
    const other = await world();
    for (const [who, token, id] of [
      [tenant, admin, '00000000-0000-4000-8000-000000000000'],
      [other.tenant, other.admin, decided.id],
    ] as const) {
      expect((await harness.request(who, 'GET', `/v1/receipts/${id}`, { token })).status).toBe(404);
      expect(
        (
          await harness.request(who, 'POST', `/v1/receipts/${id}/reviews`, {
            token,
            body: { verdict: 'AUTHORIZE', reason: 'VERIFIED' },
          })
        ).status,
      ).toBe(404);
    }
  });
});

describe('GET /v1/receipts', () => {
  it("lists receipt list items with the document's filter and sort fields", async () => {
    const { tenant, admin } = await world();
    await decisionOf(tenant, admin, preparsed({ total: field('5.00') }));
    await decisionOf(tenant, admin, preparsed({ total: field('50.00') }));
    const response = await harness.request(
      tenant,
      'GET',
      `/v1/receipts?sort=total&order=DESC&filter=${encodeURIComponent('total:(gt:1)')}`,
      { token: admin },
    );
    const list = await dataOf<Json[]>(response);
    expect(list.map((item) => item.total)).toEqual([50, 5]);
    // The document's fields, and the totals' currency beside them (issue 22).
    expect(Object.keys(list[0]).sort()).toEqual([
      'barcode',
      'correctedTotal',
      'createdAt',
      'currency',
      'id',
      'notionallyServedAt',
      'ocrConfidence',
      'serviceDate',
      'serviceTime',
      'status',
      'subtotal',
      'total',
      'updatedAt',
    ]);
    expect(response.headers.get('content-range')).toBe('receipt 0-1/2');
    const sorted = await dataOf<Json[]>(
      await harness.request(tenant, 'GET', '/v1/receipts?sort=notionallyServedAt&order=ASC', { token: admin }),
    );
    expect(sorted).toHaveLength(2);
  });
});

// docs/receipts.md#reporting-reviews: "Points granted for a receipt are reversed if it is later rejected; authorizing twice never grants twice."
describe('points for a receipt', () => {
  it('are reversed when the receipt is rejected, granted again when it is authorized again, and never twice', async () => {
    const { tenant, admin, points, ledger } = await rewardedWorld();
    const decided = await decisionOf(tenant, admin, preparsed());
    const review = (verdict: string) =>
      harness.request(tenant, 'POST', `/v1/receipts/${decided.id}/reviews`, {
        token: admin,
        body: { verdict, reason: verdict === 'REJECT' ? 'SUSPICIOUS' : 'VERIFIED' },
      });
    await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 1);
    await expect.poll(points, { timeout: 5000 }).toBe(10);

    await review('REJECT');
    await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 2);
    await expect.poll(points, { timeout: 5000 }).toBe(0);
    const [earn, reversal] = await ledger();
    expect(earn).toMatchObject({ kind: 'EARN', points: 10 });
    expect(reversal).toMatchObject({ kind: 'REVERSAL', points: -10 });

    await review('AUTHORIZE');
    await review('AUTHORIZE');
    await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 3);
    await expect.poll(points, { timeout: 5000 }).toBe(10);
    await queuesDrained();
    expect(await points()).toBe(10);
    expect((await ledger()).map((entry: Json) => entry.kind)).toEqual(['EARN', 'REVERSAL', 'EARN']);
  });

  it('flipped back and forth within the duplicate window, every change is reported and the points follow the last', async () => {
    const { tenant, admin, points } = await rewardedWorld();
    // Without a total the claim waits for a person, who decides three times within a minute.
    const decided = await decisionOf(tenant, admin, preparsed({ total: undefined }));
    expect(decided.status).toBe('PENDING');
    for (const [verdict, reason] of [
      ['AUTHORIZE', 'VERIFIED'],
      ['REJECT', 'SUSPICIOUS'],
      ['AUTHORIZE', 'VERIFIED'],
    ]) {
      await harness.request(tenant, 'POST', `/v1/receipts/${decided.id}/reviews`, {
        token: admin,
        body: { verdict, reason },
      });
    }
    const events = await waitForEvents(tenant, admin, 'RECEIPT_REVIEWED', 3);
    expect(events.map((event: Json) => event.payload.status)).toEqual(['AUTHORIZED', 'REJECTED', 'AUTHORIZED']);
    await expect.poll(points, { timeout: 5000 }).toBe(10);
  });

  it("a RECEIPT_REVIEWED a tenant reports itself is stored, and moves no receipt's points", async () => {
    const { tenant, admin, points } = await rewardedWorld();
    const decided = await decisionOf(tenant, admin, preparsed());
    await expect.poll(points, { timeout: 5000 }).toBe(10);
    const typeAdmin = await harness.adminToken(tenant, ['admin:event_types']);
    const { secret } = await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types/RECEIPT_REVIEWED/secret', { token: typeAdmin }),
    );
    for (const receiptId of [decided.id, 'not-a-uuid']) {
      const reported = await harness.request(tenant, 'POST', '/v1/events', {
        token: secret,
        body: { type: 'RECEIPT_REVIEWED', subject: 'shopper', payload: { receiptId, status: 'REJECTED' } },
      });
      expect(reported.status).toBe(201);
      const { id } = await dataOf<{ id: number }>(reported);
      expect((await harness.request(tenant, 'GET', `/v1/events/${id}/reactions?wait=5000`)).status).toBe(200);
    }
    expect(await points()).toBe(10);
  });

  it('a rejection registered before the authorization it follows still reverses it, and registering both again changes nothing', async () => {
    const { tenant, admin, points, ledger } = await rewardedWorld();
    const events = workers[1]!;
    await events.pause();
    try {
      const decided = await decisionOf(tenant, admin, preparsed());
      await harness.request(tenant, 'POST', `/v1/receipts/${decided.id}/reviews`, {
        token: admin,
        body: { verdict: 'REJECT', reason: 'SUSPICIOUS' },
      });
      const reviews = await harness.context.orm.em
        .fork()
        .getConnection()
        .execute(
          `select event_id from receipt_review where receipt_id = ? and event_id is not null order by status_version`,
          [decided.id],
        );
      const jobs = await Promise.all(
        reviews.map(
          async (row: Json) =>
            jobEvents((await harness.context.queues.events.getJob(`event-${row.event_id}`))!.data).events[0]!,
        ),
      );
      const dependencies = registrationDependencies(harness.context);
      // The REJECTED event first, then the AUTHORIZED one.
      await registerEvents(dependencies, [jobs[1]!]);
      await registerEvents(dependencies, [jobs[0]!]);
      expect(await points()).toBe(0);
      await registerEvents(dependencies, jobs);
    } finally {
      events.resume();
    }
    await queuesDrained();
    expect(await points()).toBe(0);
    expect((await ledger()).map((entry: Json) => [entry.kind, entry.points])).toEqual([
      ['EARN', 10],
      ['REVERSAL', -10],
    ]);
  });
});
