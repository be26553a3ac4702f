import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Receipt } from '../../shared/receipts/receipt.entity.js';
import { Review } from '../../shared/receipts/review.entity.js';
import type { ReviewReason, ReviewVerdict } from '../../shared/rules/review-enums.js';
import { storeClaim } from '../support/receipts.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let receipt: Receipt;
/** The receipt's reviews, oldest first: the automated one, then three by two admins. */
let reviewIds: string[];

/** A review stored directly, `minutes` after a fixed hour, so the order of the list does not hang on the clock. */
async function storeReview(
  of: Receipt,
  minutes: number,
  verdict: ReviewVerdict,
  reason: ReviewReason,
  reviewer: string | null,
): Promise<string> {
  const em = harness.context.orm.em.fork();
  const review = em.create(Review, {
    id: randomUUID(),
    tenant: of.tenant,
    receipt: of.id,
    verdict,
    reason,
    isAutomated: reviewer === null,
    reviewer: reviewer === null ? null : { authIssuer: 'tally', authIdentifier: reviewer },
    comment: null,
    checks: [],
    ruleSetId: null,
    ruleEngineResult: null,
    eventId: null,
    statusVersion: null,
    createdAt: new Date(Date.UTC(2026, 1, 1, 12, minutes)),
  });
  await em.flush();
  return review.id;
}

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:receipts', 'admin:users']);
  await registerMember(harness, tenant, admin, 'shopper');
  receipt = await storeClaim(harness, tenant);
  reviewIds = [
    await storeReview(receipt, 0, 'ABSTAIN', 'FLAGGED_FOR_SPOT_CHECK', null),
    await storeReview(receipt, 1, 'ABSTAIN', 'OTHER', 'first@example.org'),
    await storeReview(receipt, 2, 'AUTHORIZE', 'VERIFIED', 'first@example.org'),
    await storeReview(receipt, 3, 'REJECT', 'SUSPICIOUS', 'second@example.org'),
  ];
  // Another receipt's review, which no page of the first receipt's shows.
  await storeReview(await storeClaim(harness, tenant), 4, 'AUTHORIZE', 'VERIFIED', 'first@example.org');
});
afterAll(() => harness.close());

const reviews = (query = '', receiptId = receipt.id, who: TestTenant = tenant, token = admin) =>
  harness.request(who, 'GET', `/v1/receipts/${receiptId}/reviews${query}`, { token });

async function page(query: string): Promise<{ ids: string[]; range: string | null }> {
  const response = await reviews(query);
  expect(response.status).toBe(200);
  return {
    ids: (await dataOf<Json[]>(response)).map((review) => review.id),
    range: response.headers.get('content-range'),
  };
}

// decisions §14: "GET /v1/receipts/{id}/reviews … are lists like every other (list helper, Content-Range)".
// decisions §3: "Every list: limit (default 10, maximum 1000, larger is 400), skip (default 0), sort, order
// (ASC/DESC), filter (O-Rison, §4), and the header Content-Range … Default order is newest first."
describe("a receipt's reviews are a list like every other", () => {
  it('newest first, the whole of them in Content-Range', async () => {
    expect(await page('')).toEqual({ ids: [...reviewIds].reverse(), range: 'review 0-3/4' });
  });

  it('limit and skip give a page; sort and order turn it round', async () => {
    expect(await page('?limit=2&skip=1')).toEqual({ ids: [reviewIds[2], reviewIds[1]], range: 'review 1-2/4' });
    expect(await page('?sort=createdAt&order=asc&limit=3')).toEqual({
      ids: reviewIds.slice(0, 3),
      range: 'review 0-2/4',
    });
    expect(await page('?skip=10')).toEqual({ ids: [], range: 'review */4' });
  });

  it('filters on the verdict, the reason, who reviewed, whether automated, when and which', async () => {
    const filtered = (filter: string) => page(`?order=ASC&filter=${encodeURIComponent(filter)}`);
    expect((await filtered('isAutomated:(eq:!f)')).ids).toEqual(reviewIds.slice(1));
    expect((await filtered("verdict:(in:!('AUTHORIZE','REJECT'))")).ids).toEqual(reviewIds.slice(2));
    expect((await filtered("reason:(eq:'OTHER')")).ids).toEqual([reviewIds[1]]);
    expect((await filtered("reviwer.authIdentifier:(like:'first@%')")).ids).toEqual(reviewIds.slice(1, 3));
    expect((await filtered("createdAt:(gt:'2026-02-01T12:01:30Z')")).ids).toEqual(reviewIds.slice(2));
    expect(await filtered(`id:(eq:'${reviewIds[3]}')`)).toEqual({ ids: [reviewIds[3]], range: 'review 0-0/1' });
  });
});

describe("a receipt's reviews: refused queries", () => {
  it.each([
    ['limit', '?limit=1001'],
    ['sort', '?sort=verdict'],
    ['comment', `?filter=${encodeURIComponent("comment:(eq:'x')")}`],
    ['isAutomated', `?filter=${encodeURIComponent("isAutomated:(eq:'yes')")}`],
  ])('%s: 400 naming it', async (property, query) => {
    const response = await reviews(query);
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data).toMatchObject({ name: 'ValidationError', errors: [{ property }] });
  });
});

describe("a receipt's reviews: the tenant's own", () => {
  it("another tenant's receipt, or no receipt at all, is 404", async () => {
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:receipts']);
    expect((await reviews('', receipt.id, other, otherAdmin)).status).toBe(404);
    expect((await reviews('', randomUUID())).status).toBe(404);
    expect((await reviews('', 'not-a-uuid')).status).toBe(404);
  });
});
