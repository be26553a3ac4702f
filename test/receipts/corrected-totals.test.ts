import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { storeClaim } from '../support/receipts.js';
import { createHarness, dataOf, jsonOf, registerMember, type Harness, type Json } from '../support/harness.js';

let harness: Harness;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  workers = startWorkers(harness.context, ['events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

/**
 * A tenant with two members and a reactor that pays a point per unit of an authorized receipt's
 * corrected total: what a reactor sees of a correction.
 */
async function world() {
  const tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:receipts', 'admin:users', 'admin:reactors', 'admin:events']);
  await registerMember(harness, tenant, admin, 'shopper');
  await registerMember(harness, tenant, admin, 'neighbour');
  const reactor = await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'A point per corrected unit',
      eventType: 'RECEIPT_REVIEWED',
      conditions: { all: [{ fact: 'payload', path: '$.status', operator: 'equal', value: 'AUTHORIZED' }] },
      reactions: [
        {
          type: 'POINTS',
          points: { operation: 'SUM', arguments: [{ type: 'PATH', value: '$.payload.correctedTotal' }] },
        },
      ],
    },
  });
  expect(reactor.status).toBe(201);
  const get = async (path: string) => dataOf<Json>(await harness.request(tenant, 'GET', path, { token: admin }));
  const review = (receiptId: string, body: object) =>
    harness.request(tenant, 'POST', `/v1/receipts/${receiptId}/reviews`, { token: admin, body });
  /** The RECEIPT_REVIEWED events once `count` are registered, oldest first. */
  const reviewEvents = async (count: number): Promise<Json[]> => {
    const path = `/v1/events?sort=reportedAt&order=ASC&filter=${encodeURIComponent("type.name:(eq:'RECEIPT_REVIEWED')")}`;
    await expect.poll(async () => (await get(path)).length, { timeout: 10_000 }).toBe(count);
    return get(path);
  };
  return { tenant, admin, get, review, reviewEvents };
}

/** The id of a review, as its POST answered it. */
const idOf = async (posted: Promise<Response>) => (await dataOf<{ id: string }>(await posted)).id;

/**
 * The receipt's reviews, which must be those of `ids`, in the order of `ids` (the order they were
 * posted): what erasure may take (comment) and what it leaves. The list orders reviews by time, and
 * two posted within one millisecond by their random ids, so it cannot tell which came first.
 */
async function reviewsOf(get: (path: string) => Promise<Json>, receiptId: string, ids: string[]) {
  const listed = (await get(`/v1/receipts/${receiptId}/reviews?limit=100`)) as Json[];
  expect(listed.map((entry) => entry.id).sort()).toEqual([...ids].sort());
  return ids
    .map((id) => listed.find((entry) => entry.id === id))
    .map((entry) => ({ verdict: entry.verdict, comment: entry.comment, correctedTotal: entry.correctedTotal }));
}

// decisions §14: "POST /v1/receipts/{id}/reviews also takes correctedTotal (number ≥ 0, optional) and comment
// (string ≤ 2,000, optional); the receipt then shows correctedTotal, and RECEIPT_REVIEWED carries it in its payload."
describe('a manual review with a corrected total', () => {
  it('is shown on the review and the receipt, carried by RECEIPT_REVIEWED beside the total as read, and a reactor pays on it', async () => {
    const { tenant, get, review, reviewEvents } = await world();
    const claim = await storeClaim(harness, tenant, { total: 12.5 });
    const answered = await review(claim.id, {
      verdict: 'AUTHORIZE',
      reason: 'VERIFIED',
      correctedTotal: 42.5,
      comment: 'Till roll says 42.50',
    });
    expect(answered.status).toBe(201);
    expect(await dataOf(answered)).toMatchObject({ correctedTotal: 42.5, comment: 'Till roll says 42.50' });

    expect(await get(`/v1/receipts/${claim.id}`)).toMatchObject({
      status: 'AUTHORIZED',
      total: 12.5,
      correctedTotal: 42.5,
      paramountReview: { correctedTotal: 42.5 },
    });
    const [item] = await get(`/v1/receipts?filter=${encodeURIComponent(`id:(eq:'${claim.id}')`)}`);
    expect(item).toMatchObject({ total: 12.5, correctedTotal: 42.5 });

    const [event] = await reviewEvents(1);
    // The total as read stays what it is; the comment, which may name the member, is no part of the event.
    expect(event.payload).toMatchObject({ status: 'AUTHORIZED', total: 12.5, correctedTotal: 42.5 });
    expect(event.payload).not.toHaveProperty('comment');
    expect(
      await dataOf<Json>(await harness.request(tenant, 'GET', `/v1/events/${event.id}/reactions?wait=5000`)),
    ).toMatchObject({ totalPoints: 42 });
  });

  it('is kept to 4 decimal places, rounded as PostgreSQL rounds: the answer and RECEIPT_REVIEWED carry what the receipt shows', async () => {
    const { tenant, get, review, reviewEvents } = await world();
    const claim = await storeClaim(harness, tenant, { total: 12.5 });
    const answered = await review(claim.id, { verdict: 'AUTHORIZE', reason: 'VERIFIED', correctedTotal: 10.123456 });
    expect(answered.status).toBe(201);
    expect(await dataOf(answered)).toMatchObject({ correctedTotal: 10.1235 });
    expect(await get(`/v1/receipts/${claim.id}`)).toMatchObject({
      correctedTotal: 10.1235,
      paramountReview: { correctedTotal: 10.1235 },
    });
    const [event] = await reviewEvents(1);
    expect(event.payload).toMatchObject({ correctedTotal: 10.1235 });
    // 1.00005 lies just below the half as a binary number; PostgreSQL rounds its decimal text, up.
    const halfway = await review(claim.id, { verdict: 'REJECT', reason: 'SUSPICIOUS', correctedTotal: 1.00005 });
    expect(await dataOf(halfway)).toMatchObject({ correctedTotal: 1.0001 });
    expect(await get(`/v1/receipts/${claim.id}`)).toMatchObject({ correctedTotal: 1.0001 });
  });

  it('stands through a later review that gives none; an ABSTAIN changes nothing (decisions §9), its total kept on the review only', async () => {
    const { tenant, get, review, reviewEvents } = await world();
    const claim = await storeClaim(harness, tenant, { total: 12.5 });
    const correctedTotal = async () => (await get(`/v1/receipts/${claim.id}`)).correctedTotal;

    const posted: string[] = [];
    const reviewed = async (body: object) => posted.push(await idOf(review(claim.id, body)));

    await reviewed({ verdict: 'AUTHORIZE', reason: 'VERIFIED', correctedTotal: 42.5 });
    await reviewed({ verdict: 'REJECT', reason: 'SUSPICIOUS' });
    expect(await correctedTotal()).toBe(42.5);
    await reviewed({ verdict: 'ABSTAIN', reason: 'OTHER', correctedTotal: 99 });
    expect(await correctedTotal()).toBe(42.5);
    await reviewed({ verdict: 'AUTHORIZE', reason: 'VERIFIED', correctedTotal: 0 });
    expect(await correctedTotal()).toBe(0);

    expect((await reviewsOf(get, claim.id, posted)).map((entry) => [entry.verdict, entry.correctedTotal])).toEqual([
      ['AUTHORIZE', 42.5],
      ['REJECT', null],
      ['ABSTAIN', 99],
      ['AUTHORIZE', 0],
    ]);
    // Each status change reports the correction standing when it was made.
    const events = await reviewEvents(3);
    expect(events.map((event) => [event.payload.status, event.payload.correctedTotal])).toEqual([
      ['AUTHORIZED', 42.5],
      ['REJECTED', 42.5],
      ['AUTHORIZED', 0],
    ]);
  });
});

describe('a manual review: refused bodies', () => {
  it.each([
    ['correctedTotal', { correctedTotal: -0.01 }],
    ['correctedTotal', { correctedTotal: '42.50' }],
    ['correctedTotal', { correctedTotal: 1e9 }],
    ['comment', { comment: 'x'.repeat(2001) }],
  ])('%s out of bounds is 400 naming it, and nothing is stored', async (property, extra) => {
    const { tenant, get, review } = await world();
    const claim = await storeClaim(harness, tenant);
    const response = await review(claim.id, { verdict: 'AUTHORIZE', reason: 'VERIFIED', ...extra });
    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body.data.name).toBe('ValidationError');
    expect(body.data.errors.map((error: Json) => error.property)).toContain(property);
    expect(await get(`/v1/receipts/${claim.id}/reviews`)).toEqual([]);
    expect((await get(`/v1/receipts/${claim.id}`)).correctedTotal).toBeNull();
  });
});

// docs/users.md#erasure: a review's comment may name the member or hold their contact details; erasure takes it.
describe("erasure and the comments on a member's receipts", () => {
  it("DELETE /v1/users/{id} takes them; what was decided stays, and another member's comments too", async () => {
    const { tenant, admin, get, review } = await world();
    const erased = await storeClaim(harness, tenant, {}, 'shopper');
    const kept = await storeClaim(harness, tenant, {}, 'neighbour');
    const posted = new Map<string, string[]>();
    for (const claim of [erased, kept]) {
      posted.set(claim.id, [
        await idOf(review(claim.id, { verdict: 'ABSTAIN', reason: 'OTHER', comment: 'Called Jo on 0123 456 789' })),
        await idOf(
          review(claim.id, { verdict: 'AUTHORIZE', reason: 'VERIFIED', correctedTotal: 20, comment: 'Jo confirmed' }),
        ),
      ]);
    }
    expect((await harness.request(tenant, 'DELETE', '/v1/users/shopper', { token: admin })).status).toBe(200);

    expect(await reviewsOf(get, erased.id, posted.get(erased.id)!)).toEqual([
      { verdict: 'ABSTAIN', comment: null, correctedTotal: null },
      { verdict: 'AUTHORIZE', comment: null, correctedTotal: 20 },
    ]);
    expect(await get(`/v1/receipts/${erased.id}`)).toMatchObject({ status: 'AUTHORIZED', correctedTotal: 20 });
    expect((await reviewsOf(get, kept.id, posted.get(kept.id)!)).map((entry) => entry.comment)).toEqual([
      'Called Jo on 0123 456 789',
      'Jo confirmed',
    ]);
  });

  it("a review of an erased member's receipt takes no comment (400 naming it), and is taken without one", async () => {
    const { tenant, admin, get, review } = await world();
    const claim = await storeClaim(harness, tenant);
    expect((await harness.request(tenant, 'DELETE', '/v1/users/shopper', { token: admin })).status).toBe(200);

    const refused = await review(claim.id, { verdict: 'AUTHORIZE', reason: 'VERIFIED', comment: 'Jo again' });
    expect(refused.status).toBe(400);
    expect((await jsonOf(refused)).data).toMatchObject({ name: 'BadRequestError', errors: [{ property: 'comment' }] });
    expect(await get(`/v1/receipts/${claim.id}`)).toMatchObject({ status: 'PENDING', paramountReview: null });

    expect((await review(claim.id, { verdict: 'AUTHORIZE', reason: 'VERIFIED', correctedTotal: 9 })).status).toBe(201);
    expect(await get(`/v1/receipts/${claim.id}`)).toMatchObject({ status: 'AUTHORIZED', correctedTotal: 9 });
  });
});
