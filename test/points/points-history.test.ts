import { randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEvents, registrationDependencies } from '../../shared/reactors/register-events.js';
import { earn } from '../../shared/ledger/ledger.js';
import { adjust } from '../../shared/ledger/spend-and-adjust.js';
import type { TenantSettings } from '../../shared/tenants/tenant-settings.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
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
import { rewardFor, voucherFor } from '../support/rewards-setup.js';

// decisions §13 "Points history": "GET /v1/users/{id}/points-history (read:users) and GET
// /v1/users/me/points-history: ledger entries newest first, list helper (filter on kind, createdAt;
// Content-Range: points-history a-b/n), each {id, kind, points, createdAt, expiresAt, cause} …; an
// EARN cut by a cap also carries requestedPoints." Issue 21: "each naming its cause in one readable
// object: the event (id, type name) and reactor (id, name), the receipt and its review, the purchase
// and reward, the expiry run, or the admin and reason of an adjustment."

let harness: Harness;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  // The receipt's review and its RECEIPT_REVIEWED event run as in production.
  workers = startWorkers(harness.context, ['reviews', 'events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;

async function world(configuration: TenantSettings = {}) {
  const tenant = await harness.createTenant({ configuration });
  const admin = await harness.adminToken(tenant, [
    'admin:users',
    'admin:reactors',
    'admin:receipts',
    'admin:rewards',
    'admin:events',
  ]);
  const member = (await registerMember(harness, tenant, admin, 'shopper')) as { id: string; accountNumber: number };
  return { tenant, admin, member };
}

async function reactorOn(
  tenant: TestTenant,
  admin: string,
  eventType: string,
  name: string,
  points: number,
  conditions?: unknown,
) {
  const response = await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name,
      eventType,
      ...(conditions ? { conditions } : {}),
      reactions: [
        { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: String(points) }] } },
      ],
    },
  });
  expect(response.status).toBe(201);
  return (await dataOf<{ id: string }>(response)).id;
}

/** An ORDER_PLACED event of the member, registered and reacted to as the events worker does. */
async function orderPlaced(tenant: TestTenant, userId: string): Promise<number> {
  const type = await queryOne(harness, "select id from event_type where tenant_id = ? and name = 'ORDER_PLACED'", [
    tenant.id,
  ]);
  const id = await harness.context.eventIds.allocate();
  await registerEvents(registrationDependencies(harness.context), [
    {
      id,
      tenantId: tenant.id,
      eventTypeId: type.id,
      eventTypeName: 'ORDER_PLACED',
      userId,
      payload: {},
      reportedAt: new Date().toISOString(),
      occurredAt: null,
    },
  ]);
  return id;
}

const history = (tenant: TestTenant, token: string, path = '/v1/users/shopper/points-history', query = '') =>
  harness.request(tenant, 'GET', `${path}${query}`, { token });

const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const field = (value: string) => ({ value, confidence: 0.95 });

/**
 * A preparsed claim of the member's, authorized by the automated review; resolves once the events
 * worker has registered its RECEIPT_REVIEWED event and the member's history shows `entries` entries
 * caused by receipts.
 */
async function authorizedReceipt(tenant: TestTenant, admin: string, entries = 1): Promise<{ id: string }> {
  const claimed = await harness.request(tenant, 'POST', '/v1/receipts', {
    token: admin,
    body: {
      useParser: false,
      submitter: { authIdentifier: 'shopper' },
      ocrConfidence: 0.93,
      serviceDate: field(day(-1)),
      serviceTime: field('14:32'),
      total: field('12.50'),
      merchantName: field('Corner Shop'),
      barcode: field('4000000123'),
      formatSlug: 'corner-shop-till',
      lineItems: [{ description: 'Oat milk', identifier: 'SKU-OAT', quantity: 1, unitPrice: 2.5, totalPrice: 2.5 }],
    },
  });
  expect(claimed.status).toBe(201);
  const receipt = await dataOf<{ id: string; status: string }>(claimed);
  expect(receipt.status).toBe('AUTHORIZED');
  await receiptEntries(tenant, admin, entries);
  return receipt;
}

/** Waits until the member's history holds `count` entries caused by receipts: the events worker reacts to RECEIPT_REVIEWED. */
async function receiptEntries(tenant: TestTenant, admin: string, count: number): Promise<void> {
  await expect
    .poll(
      async () =>
        (await dataOf<Json[]>(await history(tenant, admin))).filter((item) => item.cause.type === 'RECEIPT').length,
      { timeout: 15_000, interval: 50 },
    )
    .toBe(count);
}

const TEN_PER_AUTHORIZED_RECEIPT = {
  all: [{ fact: 'payload', path: '$.status', operator: 'equal', value: 'AUTHORIZED' }],
};

describe('each entry names its cause', () => {
  it('an event and its reactor, a receipt and its review, a purchase and its reward, an expiry, an adjustment', async () => {
    const { tenant, admin, member } = await world();
    const orderReactor = await reactorOn(tenant, admin, 'ORDER_PLACED', 'Order points', 40);
    const receiptReactor = await reactorOn(
      tenant,
      admin,
      'RECEIPT_REVIEWED',
      'Ten per authorized receipt',
      10,
      TEN_PER_AUTHORIZED_RECEIPT,
    );
    const eventId = await orderPlaced(tenant, member.id);

    const receipt = await authorizedReceipt(tenant, admin);
    const reader = await harness.adminToken(tenant, ['read:users']);

    const rewardId = await rewardFor(harness, tenant, { name: 'Free coffee', price: 30 });
    await voucherFor(harness, tenant, member.id, rewardId);
    const adjusted = await harness.request(tenant, 'POST', '/v1/users/shopper/points-adjustments', {
      token: await harness.adminToken(tenant, ['admin:users'], 'support@example.com'),
      body: { points: 5, reason: 'Goodwill after a late delivery' },
    });
    expect(adjusted.status).toBe(201);
    // The expiry sweep is not built yet: its entry is written as the sweep will write it, naming the EARN.
    const earnEntry = await queryOne(harness, 'select id from ledger_entry where event_id = ? and reactor_id = ?', [
      eventId,
      orderReactor,
    ]);
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into ledger_entry (id, tenant_id, user_id, kind, points, expires_entry_id, created_at)
         values (gen_random_uuid(), ?, ?, 'EXPIRY', -5, ?, now())`,
        [tenant.id, member.id, earnEntry.id],
      );

    const response = await history(tenant, reader);
    expect(response.status).toBe(200);
    const items = await dataOf<Json[]>(response);
    const byCause = (type: string, kind?: string) =>
      items.filter((item) => item.cause.type === type && (kind === undefined || item.kind === kind));
    const review = await queryOne(harness, 'select id, event_id from receipt_review where receipt_id = ?', [
      receipt.id,
    ]);

    expect(byCause('EVENT')).toEqual([
      {
        id: earnEntry.id,
        kind: 'EARN',
        points: 40,
        createdAt: expect.any(String),
        expiresAt: null,
        cause: {
          type: 'EVENT',
          eventId,
          eventType: 'ORDER_PLACED',
          reactorId: orderReactor,
          reactorName: 'Order points',
        },
      },
    ]);
    // The EARN came from a reactor on the review's RECEIPT_REVIEWED event: both are named beside the receipt.
    expect(byCause('RECEIPT')).toEqual([
      expect.objectContaining({
        kind: 'EARN',
        points: 10,
        cause: {
          type: 'RECEIPT',
          receiptId: receipt.id,
          reviewId: review.id,
          eventId: Number(review.event_id),
          eventType: 'RECEIPT_REVIEWED',
          reactorId: receiptReactor,
          reactorName: 'Ten per authorized receipt',
        },
      }),
    ]);
    const purchase = await queryOne(harness, 'select id from purchase where user_id = ?', [member.id]);
    expect(byCause('PURCHASE')).toEqual([
      expect.objectContaining({
        kind: 'SPEND',
        points: -30,
        cause: { type: 'PURCHASE', purchaseId: purchase.id, rewardId, rewardName: 'Free coffee' },
      }),
    ]);
    expect(byCause('EXPIRY')).toEqual([
      expect.objectContaining({ kind: 'EXPIRY', points: -5, cause: { type: 'EXPIRY', expiredEntryId: earnEntry.id } }),
    ]);
    // The purchase helper gives the price by an adjustment first ('test' by 'test').
    expect(byCause('ADJUSTMENT').map((item) => [item.points, item.cause])).toEqual([
      [5, { type: 'ADJUSTMENT', reason: 'Goodwill after a late delivery', actor: 'support@example.com' }],
      [30, { type: 'ADJUSTMENT', reason: 'test', actor: 'test' }],
    ]);
    expect(items).toHaveLength(6);
    expect(response.headers.get('content-range')).toBe('points-history 0-5/6');

    // A reactor deleted since: the entry keeps its id, and its name is null.
    expect(
      (await harness.request(tenant, 'DELETE', `/v1/reactors/${orderReactor}`, { token: admin })).status,
    ).toBeLessThan(300);
    const afterDelete = await dataOf<Json[]>(await history(tenant, reader, undefined, "?filter=kind:(eq:'EARN')"));
    expect(afterDelete.find((item) => item.id === earnEntry.id).cause).toEqual({
      type: 'EVENT',
      eventId,
      eventType: 'ORDER_PLACED',
      reactorId: orderReactor,
      reactorName: null,
    });
  });

  // docs/receipts.md#reporting-reviews: points granted for a receipt later rejected are reversed.
  it('a REVERSAL of a rejected receipt names the receipt, the rejecting review, and the EARN it undoes', async () => {
    const { tenant, admin } = await world();
    await reactorOn(tenant, admin, 'RECEIPT_REVIEWED', 'Ten per authorized receipt', 10, TEN_PER_AUTHORIZED_RECEIPT);
    const receipt = await authorizedReceipt(tenant, admin);
    const rejected = await harness.request(tenant, 'POST', `/v1/receipts/${receipt.id}/reviews`, {
      token: admin,
      body: { verdict: 'REJECT', reason: 'SUSPICIOUS' },
    });
    expect(rejected.status).toBe(201);
    const rejection = await dataOf<{ id: string }>(rejected);
    await receiptEntries(tenant, admin, 2);
    const [reversal, earned] = await dataOf<Json[]>(await history(tenant, admin));
    const review = await queryOne(harness, 'select event_id from receipt_review where id = ?', [rejection.id]);
    expect(earned).toMatchObject({ kind: 'EARN', points: 10, cause: { type: 'RECEIPT', receiptId: receipt.id } });
    expect(reversal).toEqual({
      id: expect.any(String),
      kind: 'REVERSAL',
      points: -10,
      createdAt: expect.any(String),
      expiresAt: null,
      reversesEntryId: earned.id,
      cause: {
        type: 'RECEIPT',
        receiptId: receipt.id,
        reviewId: rejection.id,
        eventId: Number(review.event_id),
        eventType: 'RECEIPT_REVIEWED',
        reactorId: null,
        reactorName: null,
      },
    });
  });

  // decisions §13: "an EARN cut by a cap also carries requestedPoints".
  it('an EARN cut by the earn cap carries requestedPoints, the points its reactor asked for', async () => {
    const { tenant, admin, member } = await world({ pointsCaps: { earn: { max: 100, period: 'DAY' } } });
    await reactorOn(tenant, admin, 'ORDER_PLACED', 'Seventy per order', 70);
    await orderPlaced(tenant, member.id);
    await orderPlaced(tenant, member.id);
    const items = await dataOf<Json[]>(await history(tenant, admin));
    expect(items.map((item) => [item.kind, item.points, item.requestedPoints])).toEqual(
      expect.arrayContaining([
        ['EARN', 70, undefined],
        ['EARN', 30, 70],
      ]),
    );
    expect(items).toHaveLength(2);
  });
});

describe('the list: newest first, filters, paging, and who may read it', () => {
  let tenant: TestTenant;
  let admin: string;
  let member: { id: string; accountNumber: number };
  /** The member's entries, oldest first, one a day from 2026-03-01. */
  const made: { id: string; kind: string; createdAt: string }[] = [];
  const at = (n: number) => new Date(Date.parse('2026-03-01T12:00:00Z') + n * DAY_MS);

  beforeAll(async () => {
    ({ tenant, admin, member } = await world());
    const knex = harness.context.orm.em.fork().getKnex();
    for (let n = 0; n < 5; n++) {
      if (n % 2 === 0) {
        const eventId = await harness.context.eventIds.allocate();
        await knex.transaction((trx) =>
          earn(
            trx,
            [{ tenantId: tenant.id, userId: member.id, points: 10, cause: { eventId, reactorId: randomUUID() } }],
            at(n),
          ),
        );
        const row = await queryOne(harness, 'select id from ledger_entry where event_id = ?', [eventId]);
        made.push({ id: row.id, kind: 'EARN', createdAt: at(n).toISOString() });
      } else {
        const entryId = randomUUID();
        await knex.transaction((trx) =>
          adjust(trx, {
            entryId,
            tenantId: tenant.id,
            userId: member.id,
            points: -3,
            cause: { reason: `correction ${n}`, actor: 'support' },
            at: at(n),
          }),
        );
        made.push({ id: entryId, kind: 'ADJUSTMENT', createdAt: at(n).toISOString() });
      }
    }
  });

  const idsOf = async (response: Response) => (await dataOf<Json[]>(response)).map((item) => item.id);
  const newestFirst = () => [...made].reverse().map((entry) => entry.id);

  it('answers the entries newest first, with Content-Range: points-history a-b/n', async () => {
    const response = await history(tenant, admin);
    expect(response.status).toBe(200);
    expect(await idsOf(response)).toEqual(newestFirst());
    expect(response.headers.get('content-range')).toBe('points-history 0-4/5');
    const items = await dataOf<Json[]>(await history(tenant, admin));
    expect(items[0]).toMatchObject({ kind: 'EARN', points: 10, createdAt: made[4]!.createdAt });
  });

  it('pages with limit and skip, and orders oldest first on request', async () => {
    const page = await history(tenant, admin, undefined, '?limit=2&skip=2');
    expect(await idsOf(page)).toEqual(newestFirst().slice(2, 4));
    expect(page.headers.get('content-range')).toBe('points-history 2-3/5');
    expect(await idsOf(await history(tenant, admin, undefined, '?order=ASC'))).toEqual(made.map((entry) => entry.id));
    const beyond = await history(tenant, admin, undefined, '?skip=10');
    expect(await dataOf(beyond)).toEqual([]);
    expect(beyond.headers.get('content-range')).toBe('points-history */5');
  });

  it('filters on kind and on createdAt', async () => {
    const adjustments = await history(
      tenant,
      admin,
      undefined,
      `?filter=${encodeURIComponent("kind:(eq:'ADJUSTMENT')")}`,
    );
    expect(await idsOf(adjustments)).toEqual([made[3]!.id, made[1]!.id]);
    expect(adjustments.headers.get('content-range')).toBe('points-history 0-1/2');
    const since = encodeURIComponent(`createdAt:(gt:'${made[2]!.createdAt}')`);
    expect(await idsOf(await history(tenant, admin, undefined, `?filter=${since}`))).toEqual([
      made[4]!.id,
      made[3]!.id,
    ]);
    const both = encodeURIComponent(`kind:(in:!(EARN)),createdAt:(lt:'${made[2]!.createdAt}')`);
    expect(await idsOf(await history(tenant, admin, undefined, `?filter=${both}`))).toEqual([made[0]!.id]);
    const unknown = await history(tenant, admin, undefined, `?filter=${encodeURIComponent("reason:(eq:'x')")}`);
    expect(unknown.status).toBe(400);
    expect((await jsonOf(unknown)).data.name).toBe('ValidationError');
  });

  it('finds the member by id, authIdentifier or account number, and /me with the member’s own token', async () => {
    for (const key of [member.id, 'shopper', String(member.accountNumber)])
      expect(await idsOf(await history(tenant, admin, `/v1/users/${key}/points-history`))).toEqual(newestFirst());
    const own = await history(tenant, await harness.userToken(tenant, 'shopper'), '/v1/users/me/points-history');
    expect(own.status).toBe(200);
    expect(await idsOf(own)).toEqual(newestFirst());
    expect(own.headers.get('content-range')).toBe('points-history 0-4/5');
  });

  // docs/api-conventions.md#authentication: every failure is 401, a missing scope included.
  it('needs read:users (a user token reads only its own), and answers 404 for another tenant’s member', async () => {
    const rewardsAdmin = await harness.adminToken(tenant, ['admin:rewards']);
    expect((await history(tenant, rewardsAdmin)).status).toBe(401);
    expect((await history(tenant, await harness.userToken(tenant, 'shopper'))).status).toBe(401);
    const reader = await harness.adminToken(tenant, ['read:users']);
    expect((await history(tenant, reader)).status).toBe(200);
    const other = await world();
    const foreign = await history(other.tenant, other.admin, `/v1/users/${member.id}/points-history`);
    expect(foreign.status).toBe(404);
  });
});
