import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import { givePoints, rewardFor } from '../support/rewards-setup.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let ada: Json;
let grace: Json;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, [
    'admin:users',
    'admin:event_types',
    'admin:events',
    'admin:orders',
    'admin:rewards',
    'admin:receipts',
  ]);
  ada = await registerMember(harness, tenant, admin, 'ada');
  grace = await registerMember(harness, tenant, admin, 'grace');
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const request = (method: string, path: string, body?: unknown) =>
  harness.request(tenant, method, path, { token: admin, ...(body === undefined ? {} : { body }) });

// rewards-interface, "Point-of-sale integration": "Identify the member by wallet id, account number or
// authIdentifier." Issue 31: "say in docs/users.md that a member's id is their wallet's id, and accept it wherever a
// member is looked up."
describe("a member's id is its wallet's id, taken wherever a member is looked up", () => {
  it('by /v1/users/{id} and the routes below it', async () => {
    expect((await dataOf<Json>(await request('GET', `/v1/users/${ada.id}`))).authIdentifier).toBe('ada');
    for (const below of ['wallet', 'wallet/predictions', 'purchases', 'consents', 'points-history', 'events'])
      expect((await request('GET', `/v1/users/${ada.id}/${below}`)).status).toBe(200);
    const adjusted = await request('POST', `/v1/users/${ada.id}/points-adjustments`, {
      points: 500,
      reason: 'welcome',
    });
    expect(adjusted.status).toBe(201);
    const changed = await request('PATCH', `/v1/users/${ada.id}`, { profile: { city: 'London' } });
    expect((await dataOf<Json>(changed)).profile.city).toBe('London');
  });

  it("as an event's subject, reported and tried", async () => {
    const type = await request('POST', '/v1/event_types', { name: 'SHOP_VISITED', description: 'x', isPrivate: true });
    const { secret } = await dataOf<{ secret: string }>(type);
    const reported = await harness.request(tenant, 'POST', '/v1/events', {
      token: secret,
      body: { type: 'SHOP_VISITED', subject: ada.id },
    });
    expect(reported.status).toBe(201);
    expect((await dataOf<Json>(reported)).subject.authIdentifier).toBe('ada');
    const tried = await request('POST', '/v1/events/test_reaction', { type: 'SHOP_VISITED', subject: ada.id });
    expect(tried.status).toBe(200);
  });

  it("as an order's submitter, the same member as its authIdentifier when the order is sent again", async () => {
    const order = (submitter: unknown) => ({
      transactionId: 'T-1',
      locationId: 'shop-1',
      total: 12.5,
      lineItems: [],
      submitter,
    });
    const placed = await request('POST', '/v1/orders', order({ id: ada.id }));
    expect(placed.status).toBe(201);
    expect((await dataOf<Json>(placed)).submitter).toEqual({ authIdentifier: 'ada' });
    expect((await request('POST', '/v1/orders', order({ authIdentifier: 'ada' }))).status).toBe(200);
    expect((await request('POST', '/v1/orders', order({ accountNumber: ada.accountNumber }))).status).toBe(200);
    const another = await request('POST', '/v1/orders', order({ id: grace.id }));
    expect(another.status).toBe(409);
    expect((await jsonOf(another)).data.fields).toEqual(['submitter']);
    const nobody = await request('POST', '/v1/orders', {
      ...order({ id: '6f1c8f1e-0000-4000-8000-000000000000' }),
      transactionId: 'T-2',
    });
    expect(nobody.status).toBe(404);
  });

  it("as a receipt claim's submitter", async () => {
    const claimed = await request('POST', '/v1/receipts', {
      useParser: true,
      pictureUrl: 'https://receipts.example/1.png',
      submitter: { id: ada.id },
    });
    expect(claimed.status).toBe(201);
    const receipt = await dataOf<Json>(await request('GET', `/v1/receipts/${(await dataOf<Json>(claimed)).id}`));
    expect(receipt.submitter).toEqual({ authIdentifier: 'ada' });
    // A member's own token may name itself by its id too, and no other member.
    const own = await harness.userToken(tenant, 'grace');
    const claim = (submitter: unknown) =>
      harness.request(tenant, 'POST', '/v1/receipts', {
        token: own,
        body: { useParser: true, pictureUrl: 'https://receipts.example/2.png', submitter },
      });
    expect((await claim({ id: grace.id })).status).toBe(201);
    expect((await claim({ id: ada.id })).status).toBe(400);
  });

  it("as a purchase's subject", async () => {
    const reward = await rewardFor(harness, tenant, { price: 100 });
    await givePoints(harness, tenant, grace.id, 100);
    const bought = await request('POST', '/v1/purchases', {
      resource: { type: 'REWARD', id: reward },
      subject: { id: grace.id },
    });
    expect(bought.status).toBe(201);
    expect((await dataOf<Json>(bought)).user).toEqual({ id: grace.id });
  });

  it("as a bulk points adjustment's member", async () => {
    workers = startWorkers(harness.context, ['points-adjustments']);
    const accepted = await request('POST', '/v1/points-adjustments/bulk', {
      lines: [{ member: grace.id, points: 7, reason: 'bulk' }],
    });
    expect(accepted.status).toBe(202);
    const { jobId } = await dataOf<{ jobId: string }>(accepted);
    await expect
      .poll(async () => (await dataOf<Json>(await request('GET', `/v1/jobs/${jobId}`))).status, { timeout: 20_000 })
      .toBe('completed');
    expect(await dataOf<Json>(await request('GET', `/v1/jobs/${jobId}`))).toMatchObject({ done: 1, failed: 0 });
  });

  it('and, last, to erase the member', async () => {
    expect(await jsonOf(await request('DELETE', `/v1/users/${ada.id}`))).toMatchObject({ data: { affected: 1 } });
  });
});
