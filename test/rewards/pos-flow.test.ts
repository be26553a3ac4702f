import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, dataOf, registerMember, type Harness, type Json, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let till: string;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:reactors', 'admin:rewards']);
  till = await harness.adminToken(tenant, ['admin:orders', 'admin:users', 'admin:vouchers'], 'till-7');
  await registerMember(harness, tenant, admin, 'shopper-1');
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'A point per unit spent',
      eventType: 'ORDER_PLACED',
      reactions: [
        { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'PATH', value: '$.payload.total' }] } },
      ],
    },
  });
  workers = startWorkers(harness.context, ['events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

/**
 * rewards-interface "Point-of-sale integration", end to end: the till reports a transaction, then
 * looks up the member, reads the wallet, lists the offers, and the member buys, redeems and shows
 * the code, which the till validates (docs/rewards.md#at-the-till).
 */
describe('the point-of-sale flow', () => {
  it('earns at the till, buys with the points, redeems, and the till burns the code once', async () => {
    const coffee = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/rewards', {
        token: admin,
        body: { type: 'VOUCHER', name: 'Free coffee', price: 30, cost: 2.5, redemptionWindowMinutes: 10 },
      }),
    );
    await harness.request(tenant, 'POST', '/v1/rewards', {
      token: admin,
      body: { type: 'VOUCHER', name: 'Tote bag', price: 500, cost: 6 },
    });

    // "submit an order | receipts | POST /orders", which reports ORDER_PLACED and earns points.
    const placed = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/orders', {
        token: till,
        body: {
          transactionId: 'T-1',
          total: 42.5,
          locationId: 'STORE-7',
          lineItems: [{ identifier: 'SKU-1', quantity: 1, unitPrice: 42.5, totalPrice: 42.5 }],
          submitter: { authIdentifier: 'shopper-1' },
        },
      }),
    );
    await harness.request(tenant, 'GET', `/v1/events/${placed.eventId}/reactions?wait=5000`);

    // "look up a user and their authIdentifier | rewards | GET /users/{id}"
    const member = await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/users/shopper-1', { token: till }));
    // "read a user's points and vouchers | rewards | GET /users/{id}/wallet"
    const before = await dataOf<Json>(
      await harness.request(tenant, 'GET', `/v1/users/${member.id}/wallet`, { token: till }),
    );
    expect(before).toMatchObject({ points: 42, vouchers: [], loyaltyCost: 0 });

    // "list offers a user is eligible for | rewards | GET /rewards": with the member's token, what it can buy now.
    const shopper = await harness.userToken(tenant, 'shopper-1');
    const offers = await dataOf<Json[]>(await harness.request(tenant, 'GET', '/v1/rewards', { token: shopper }));
    expect(offers.map((offer) => [offer.name, offer.affordable]).sort()).toEqual([
      ['Free coffee', true],
      ['Tote bag', false],
    ]);

    // "Lets a user purchase a reward with points."
    const bought = await harness.request(tenant, 'POST', '/v1/purchases', {
      token: shopper,
      body: { resource: { type: 'REWARD', id: coffee.id } },
    });
    expect(bought.status).toBe(201);
    const purchase = await dataOf<Json>(bought);
    expect(purchase).toMatchObject({
      resource: { type: 'REWARD', id: coffee.id },
      benefit: { type: 'VOUCHER', id: expect.any(String) },
      completedAt: expect.any(String),
    });
    const wallet = await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/users/me/wallet', { token: shopper }));
    expect(wallet.points).toBe(12);
    expect(wallet.vouchers).toEqual([
      expect.objectContaining({ id: purchase.benefit.id, type: 'VOUCHER', redeemedAt: null, code: null }),
    ]);

    // "redeem a benefit (voucher) | rewards | POST /commands/redeem_benefit": the code is revealed.
    const redeemed = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/commands/redeem_benefit', {
        token: shopper,
        body: { voucherId: purchase.benefit.id },
      }),
    );
    expect(redeemed.redeemedAt).toEqual(expect.any(String));
    expect(redeemed.code.value).toEqual(expect.any(String));

    // "validate or burn a voucher code | rewards | POST /commands/validate_voucher": once.
    const validate = () =>
      harness.request(tenant, 'POST', '/v1/commands/validate_voucher', {
        token: till,
        body: { code: redeemed.code.value },
      });
    const burned = await validate();
    expect(burned.status).toBe(200);
    expect((await dataOf<Json>(burned)).burnedAt).toEqual(expect.any(String));
    expect((await validate()).status).toBe(409);
    // "redeemed | … the voucher is explicitly validated | gone": the wallet no longer shows it.
    const after = await dataOf<Json>(
      await harness.request(tenant, 'GET', '/v1/users/me/wallet?includeAllUnvalidatedVouchers=true', {
        token: shopper,
      }),
    );
    expect(after).toMatchObject({ points: 12, vouchers: [], loyaltyCost: 2.5 });
  });
});
