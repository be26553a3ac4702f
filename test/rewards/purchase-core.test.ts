import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorOf } from '../../shared/audit/audit-log.js';
import { purchase } from '../../shared/rewards/purchase-service.js';
import { createHarness, type Harness, queryOne, registerMember, type TestTenant } from '../support/harness.js';
import { givePoints, poolCodeFor } from '../support/rewards-setup.js';

let harness: Harness;
let tenant: TestTenant;
let adminToken: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  adminToken = await harness.adminToken(tenant, ['admin:users']);
});
afterAll(() => harness.close());

async function memberWith(points: number): Promise<string> {
  const member = await registerMember(harness, tenant, adminToken, `buyer-${randomUUID()}`);
  await givePoints(harness, tenant, member.id, points);
  return member.id;
}

async function rewardOf(fields: { price: number; hasPool?: boolean; stock?: number | null }): Promise<string> {
  const id = randomUUID();
  await harness.context.orm.em
    .fork()
    .getKnex()
    .raw(
      `insert into reward (id, tenant_id, type, name, price, cost, purchasable, stock, voucher_validity_days,
         redemption_window_minutes, default_locale, discounts, has_pool, created_at, updated_at)
       values (?, ?, 'VOUCHER', 'Free coffee', ?, 2.5, true, ?, 30, 15, 'en', '[]', ?, now(), now())`,
      [id, tenant.id, fields.price, fields.stock ?? null, fields.hasPool ?? false],
    );
  return id;
}

function buy(userId: string, rewardId: string, id = randomUUID()) {
  return purchase(
    { ...harness.context, codes: harness.context.voucherCodes },
    harness.context.orm.em.fork(),
    {
      id,
      tenantId: tenant.id,
      userId,
      actor: actorOf(undefined),
      resource: { type: 'REWARD', id: rewardId },
      policy: pointsPolicyOf({}),
    },
    new Date(),
  );
}

describe('a purchase', () => {
  it('with points for 3 of 20 concurrent purchases gives exactly 3 vouchers and leaves the remainder', async () => {
    const member = await memberWith(350);
    const reward = await rewardOf({ price: 100 });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => buy(member, reward)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    const refusals = results.flatMap((result) => (result.status === 'rejected' ? [result.reason.name] : []));
    expect(new Set(refusals)).toEqual(new Set(['InsufficientPointsError']));
    expect(
      await queryOne(
        harness,
        'select points::int, (select count(*)::int from voucher where user_id = ?) as vouchers from wallet where user_id = ?',
        [member, member],
      ),
    ).toEqual({ points: 50, vouchers: 3 });
  });

  it('of the same id twice charges once', async () => {
    const member = await memberWith(100);
    const reward = await rewardOf({ price: 60 });
    const id = randomUUID();
    const [first, second] = await Promise.all([buy(member, reward, id), buy(member, reward, id)]);
    expect(second).toEqual(first);
    expect(await queryOne(harness, 'select points::int from wallet where user_id = ?', [member])).toEqual({
      points: 40,
    });
  });

  it('of the same id twice at once, for the last of a stock: both answer the one purchase', async () => {
    const reward = await rewardOf({ price: 10, stock: 1 });
    const member = await memberWith(50);
    const id = randomUUID();
    const [first, second] = await Promise.all([buy(member, reward, id), buy(member, reward, id)]);
    expect(second).toEqual(first);
    expect(await queryOne(harness, 'select points::int from wallet where user_id = ?', [member])).toEqual({
      points: 40,
    });
  });

  it('against a pool of 10 codes, 50 at once: 10 vouchers, 40 VoucherCodePoolExhaustedError, no code twice', async () => {
    const reward = await rewardOf({ price: 1, hasPool: true });
    for (let index = 0; index < 10; index++) await poolCodeFor(harness, tenant, reward, `POOL-${index}`);
    // Registered one after another: only the purchases are meant to race.
    const members: string[] = [];
    for (let index = 0; index < 50; index++) members.push(await memberWith(5));
    const results = await Promise.allSettled(members.map((member) => buy(member, reward)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    const refusals = results.flatMap((result) => (result.status === 'rejected' ? [result.reason.name] : []));
    expect(refusals).toEqual(Array(40).fill('VoucherCodePoolExhaustedError'));
    expect(
      await queryOne(
        harness,
        'select count(*)::int as vouchers, count(distinct code_id)::int as codes from voucher where reward_id = ?',
        [reward],
      ),
    ).toEqual({ vouchers: 10, codes: 10 });
  });
});
