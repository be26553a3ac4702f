import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, queryOne, registerMember, type Harness, type TestTenant } from '../support/harness.js';
import { givePoints, rewardFor } from '../support/rewards-setup.js';

let harness: Harness;
let tenant: TestTenant;
let member: { id: string };
let token: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant({ configuration: { pointsCaps: { spend: { max: 250, period: 'DAY' } } } });
  member = await registerMember(harness, tenant, await harness.adminToken(tenant, ['admin:users']), 'big-spender');
  await givePoints(harness, tenant, member.id, 1000);
  token = await harness.userToken(tenant, 'big-spender');
});
afterAll(() => harness.close());

const buy = (rewardId: string) =>
  harness.request(tenant, 'POST', '/v1/purchases', { token, body: { resource: { type: 'REWARD', id: rewardId } } });

// decisions §13: "Spend cap: a spend beyond the period's cap is 422 PointsCapExceededError."
describe('the spend cap, through POST /v1/purchases', () => {
  it('sells up to the cap, then refuses with 422 PointsCapExceededError and charges nothing', async () => {
    const coffee = await rewardFor(harness, tenant, { price: 100 });
    expect((await buy(coffee)).status).toBe(201);
    expect((await buy(coffee)).status).toBe(201);
    const refused = await buy(coffee);
    expect(refused.status).toBe(422);
    expect(await dataOf(refused)).toMatchObject({ name: 'PointsCapExceededError' });
    expect(
      await queryOne(
        harness,
        `select w.points::int, (select count(*)::int from purchase where user_id = w.user_id) as purchases,
                (select count(*)::int from voucher where user_id = w.user_id) as vouchers
           from wallet w where w.user_id = ?`,
        [member.id],
      ),
    ).toEqual({ points: 800, purchases: 2, vouchers: 2 });
    // What is left of today's 250 still buys a cheaper reward.
    const biscuit = await rewardFor(harness, tenant, { price: 50 });
    expect((await buy(biscuit)).status).toBe(201);
  });
});
