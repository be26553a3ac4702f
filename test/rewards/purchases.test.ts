import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHarness,
  dataOf,
  type Harness,
  jsonOf,
  queryOne,
  registerMember,
  type TestTenant,
} from '../support/harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { givePoints, rewardFor } from '../support/rewards-setup.js';
import { postKilledBeforeAnswer } from '../support/killed-before-answer.js';

/** Short, so the SIGKILL test's retry takes over the dead request's claim in a second, not 30 s. */
const LEASE_MS = 1000;
/** The statement that stores an idempotent answer: the SIGKILL test holds the dead request there. */
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const DAY_MS = 86_400_000;

let harness: Harness;
let tenant: TestTenant;
let other: TestTenant;
let usersAdmin: string;
let rewardsAdmin: string;
const clock = new ManualClock();

beforeAll(async () => {
  clock.advance(NOW);
  harness = await createHarness({ clock, idempotencyLeaseMs: LEASE_MS });
  tenant = await harness.createTenant();
  other = await harness.createTenant();
  usersAdmin = await harness.adminToken(tenant, ['admin:users', 'read:users']);
  rewardsAdmin = await harness.adminToken(tenant, ['admin:rewards']);
});
afterAll(() => harness.close());

interface Member {
  id: string;
  authIdentifier: string;
  accountNumber: number;
  token: string;
}

async function memberWith(points: number): Promise<Member> {
  const authIdentifier = `buyer-${randomUUID()}`;
  const member = await registerMember(harness, tenant, usersAdmin, authIdentifier);
  if (points > 0) await givePoints(harness, tenant, member.id, points);
  return { ...member, token: await harness.userToken(tenant, authIdentifier) };
}

function buy(token: string, body: object, headers: Record<string, string> = {}) {
  return harness.request(tenant, 'POST', '/v1/purchases', { token, body, headers });
}

const reward = (id: string) => ({ resource: { type: 'REWARD', id } });

async function balanceOf(member: Member): Promise<number> {
  const wallet = await harness.request(tenant, 'GET', '/v1/users/me/wallet', { token: member.token });
  return (await dataOf<{ points: number }>(wallet)).points;
}

async function vouchersOf(member: Member): Promise<number> {
  return (await queryOne(harness, 'select count(*)::int as n from voucher where user_id = ?', [member.id])).n;
}

/** The status and error name of an answer; the answer's body stays readable. */
async function refusal(response: Response): Promise<[number, string]> {
  return [response.status, (await jsonOf(response.clone())).data?.name];
}

describe('POST /v1/purchases', () => {
  // docs/rewards.md#purchases: "a member's token buys for that member … The answer is 201
  // `{id, user, resource, benefit: {type: 'VOUCHER', id}, points, completedAt}`, where `benefit.id`
  // is the voucher's id."
  it("a member's token buys for that member: 201 with the voucher, the price spent", async () => {
    const member = await memberWith(250);
    const rewardId = await rewardFor(harness, tenant, { price: 100, voucherValidityDays: 30 });
    const response = await buy(member.token, reward(rewardId));
    expect(response.status).toBe(201);
    const bought = (await jsonOf(response)).data;
    expect(bought).toEqual({
      id: expect.any(String),
      user: { id: member.id },
      resource: { type: 'REWARD', id: rewardId },
      benefit: { type: 'VOUCHER', id: expect.any(String) },
      points: 100,
      completedAt: new Date(NOW).toISOString(),
    });
    expect(await balanceOf(member)).toBe(150);
    // "the voucher is stored with `expiresAt` `voucherValidityDays` ahead"
    const voucher = await queryOne(harness, 'select user_id, purchase_id, expires_at from voucher where id = ?', [
      bought.benefit.id,
    ]);
    expect(voucher).toMatchObject({ user_id: member.id, purchase_id: bought.id });
    expect(new Date(voucher.expires_at).getTime()).toBe(NOW + 30 * DAY_MS);
    // "Every purchase is in the audit log (`purchase.created`), the member's token as its actor when the member bought it."
    const { job } = await queryOne(
      harness,
      "select job from audit_outbox where tenant_id = ? and job->>'action' = 'purchase.created' and job->>'resourceId' = ?",
      [tenant.id, bought.id],
    );
    expect(job.actor).toEqual({ subject: member.authIdentifier, scopes: [] });
  });

  // "an admin token with `admin:rewards` names the member in `subject` (its id, `authIdentifier` or account number)"
  it('an admin token buys for the member its subject names, by id, authIdentifier or account number', async () => {
    const member = await memberWith(300);
    const rewardId = await rewardFor(harness, tenant, { price: 100 });
    for (const subject of [
      { id: member.id },
      { authIdentifier: member.authIdentifier },
      { accountNumber: member.accountNumber },
    ]) {
      const response = await buy(rewardsAdmin, { ...reward(rewardId), subject });
      expect(response.status).toBe(201);
      expect((await jsonOf(response)).data.user).toEqual({ id: member.id });
    }
    expect(await balanceOf(member)).toBe(0);
    const { job } = await queryOne(
      harness,
      "select job from audit_outbox where tenant_id = ? and job->>'action' = 'purchase.created' and job->'after'->'user'->>'id' = ? limit 1",
      [tenant.id, member.id],
    );
    expect(job.actor).toEqual({ subject: 'test-admin', scopes: ['admin:rewards'] });
  });

  describe('the refusals, each charging nothing', () => {
    // | 422 `RewardNotPurchasableError` | `purchasable` is false |
    it('422 RewardNotPurchasableError when the reward is not for sale', async () => {
      const member = await memberWith(500);
      const rewardId = await rewardFor(harness, tenant, { purchasable: false });
      expect(await refusal(await buy(member.token, reward(rewardId)))).toEqual([422, 'RewardNotPurchasableError']);
      expect(await balanceOf(member)).toBe(500);
      expect(await vouchersOf(member)).toBe(0);
    });

    // | 422 `RewardUnavailableError` | outside `availableFrom`–`availableUntil`, or out of stock |
    it('422 RewardUnavailableError before availableFrom and from availableUntil on; 201 within', async () => {
      const member = await memberWith(500);
      const rewardId = await rewardFor(harness, tenant, {
        availableFrom: new Date(clock.now() + DAY_MS).toISOString(),
        availableUntil: new Date(clock.now() + 2 * DAY_MS).toISOString(),
      });
      expect(await refusal(await buy(member.token, reward(rewardId)))).toEqual([422, 'RewardUnavailableError']);
      clock.advance(DAY_MS);
      expect((await buy(member.token, reward(rewardId))).status).toBe(201);
      clock.advance(DAY_MS);
      expect(await refusal(await buy(member.token, reward(rewardId)))).toEqual([422, 'RewardUnavailableError']);
      expect(await balanceOf(member)).toBe(400);
      expect(await vouchersOf(member)).toBe(1);
    });

    it('422 RewardUnavailableError once the stock is gone', async () => {
      const member = await memberWith(500);
      const rewardId = await rewardFor(harness, tenant, { stock: 1 });
      expect((await buy(member.token, reward(rewardId))).status).toBe(201);
      expect(await refusal(await buy(member.token, reward(rewardId)))).toEqual([422, 'RewardUnavailableError']);
      expect(await balanceOf(member)).toBe(400);
      expect((await queryOne(harness, 'select stock from reward where id = ?', [rewardId])).stock).toBe(0);
    });

    // | 422 `InsufficientPointsError` | the balance is less than the price |
    it('422 InsufficientPointsError when the balance is below the price', async () => {
      const member = await memberWith(99);
      const rewardId = await rewardFor(harness, tenant, { price: 100 });
      expect(await refusal(await buy(member.token, reward(rewardId)))).toEqual([422, 'InsufficientPointsError']);
      expect(await balanceOf(member)).toBe(99);
      expect(await vouchersOf(member)).toBe(0);
    });

    // | 409 `VoucherCodePoolExhaustedError` | the reward has a pool and it is empty |
    it('409 VoucherCodePoolExhaustedError when the pool is empty', async () => {
      const member = await memberWith(500);
      const rewardId = await rewardFor(harness, tenant, {}, ['ONLY-ONE']);
      expect((await buy(member.token, reward(rewardId))).status).toBe(201);
      expect(await refusal(await buy(member.token, reward(rewardId)))).toEqual([409, 'VoucherCodePoolExhaustedError']);
      expect(await balanceOf(member)).toBe(400);
    });

    // docs/api-conventions.md: another tenant's records are 404, as if they did not exist.
    it("404 for an unknown reward and for another tenant's reward", async () => {
      const member = await memberWith(500);
      const elsewhere = await rewardFor(harness, other);
      for (const id of [randomUUID(), 'not-a-uuid', elsewhere])
        expect(await refusal(await buy(member.token, reward(id)))).toEqual([404, 'NotFoundError']);
      expect(await balanceOf(member)).toBe(500);
    });

    it('404 for an admin subject naming no member of the tenant', async () => {
      const rewardId = await rewardFor(harness, tenant);
      const response = await buy(rewardsAdmin, { ...reward(rewardId), subject: { authIdentifier: 'nobody' } });
      expect(await refusal(response)).toEqual([404, 'NotFoundError']);
    });

    // Request bodies are closed: "Every bad input gets a clear error in the envelope" (docs/api-conventions.md#errors).
    it('400 for bad bodies, a subject with a user token, and none with an admin token', async () => {
      const member = await memberWith(500);
      const rewardId = await rewardFor(harness, tenant);
      const bad = [
        {},
        { resource: { type: 'REWARD' } },
        { resource: { type: 'COUPON', id: rewardId } },
        { resource: { type: 'REWARD', id: rewardId, extra: 1 } },
        { ...reward(rewardId), note: 'x' },
        { ...reward(rewardId), subject: { id: member.id, authIdentifier: member.authIdentifier } },
        { ...reward(rewardId), subject: { accountNumber: 'seven' } },
        { ...reward(rewardId), subject: {} },
      ];
      for (const body of bad) expect(await refusal(await buy(rewardsAdmin, body))).toEqual([400, 'ValidationError']);
      const withSubject = await buy(member.token, { ...reward(rewardId), subject: { id: member.id } });
      expect(await refusal(withSubject)).toEqual([400, 'ValidationError']);
      expect((await jsonOf(withSubject)).data.errors[0].property).toBe('subject');
      const withoutSubject = await buy(rewardsAdmin, reward(rewardId));
      expect(await refusal(withoutSubject)).toEqual([400, 'ValidationError']);
      expect((await jsonOf(withoutSubject)).data.errors[0].property).toBe('subject');
      // Partner products are not sold yet: naming a VOUCHER reward as one is a clear 400 on resource.type.
      const partner = await buy(member.token, { resource: { type: 'PARTNER1_PRODUCT', id: rewardId } });
      expect(await refusal(partner)).toEqual([400, 'ValidationError']);
      expect((await jsonOf(partner)).data.errors[0].property).toBe('resource.type');
      expect(await balanceOf(member)).toBe(500);
    });

    // docs/api-conventions.md#authentication: a missing scope is 401 UnauthorizedError.
    it('401 for an admin token without admin:rewards, and for no token', async () => {
      const member = await memberWith(500);
      const rewardId = await rewardFor(harness, tenant);
      const body = { ...reward(rewardId), subject: { id: member.id } };
      expect(await refusal(await buy(usersAdmin, body))).toEqual([401, 'UnauthorizedError']);
      const anonymous = await harness.request(tenant, 'POST', '/v1/purchases', { body });
      expect(anonymous.status).toBe(401);
      expect(await balanceOf(member)).toBe(500);
    });
  });

  // "Concurrent purchases never overspend (a balance is taken in one conditional update that
  // PostgreSQL serialises per member) and never share a code"
  describe('at once', () => {
    it('20 purchases with points for 3: exactly 3 vouchers, the remainder kept, never below zero', async () => {
      const member = await memberWith(350);
      const rewardId = await rewardFor(harness, tenant, { price: 100 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => buy(member.token, reward(rewardId)).then(refusal)),
      );
      expect(answers.filter(([status]) => status === 201)).toHaveLength(3);
      expect(answers.filter(([status, name]) => status === 422 && name === 'InsufficientPointsError')).toHaveLength(17);
      expect(await vouchersOf(member)).toBe(3);
      expect(await balanceOf(member)).toBe(50);
      const spent = await queryOne(
        harness,
        "select coalesce(sum(points), 0)::int as points, count(*)::int as entries from ledger_entry where user_id = ? and kind = 'SPEND'",
        [member.id],
      );
      expect(spent).toEqual({ points: -300, entries: 3 });
    }, 60_000);

    it('50 purchases against a pool of 10 codes: 10 vouchers, 40 VoucherCodePoolExhaustedError, no code twice', async () => {
      const member = await memberWith(50);
      const pool = Array.from({ length: 10 }, (_, index) => `POOL-${index}-${randomUUID().slice(0, 8)}`);
      const rewardId = await rewardFor(harness, tenant, { price: 1 }, pool);
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => buy(member.token, reward(rewardId)).then(refusal)),
      );
      expect(answers.filter(([status]) => status === 201)).toHaveLength(10);
      expect(
        answers.filter(([status, name]) => status === 409 && name === 'VoucherCodePoolExhaustedError'),
      ).toHaveLength(40);
      const codes = await queryOne(
        harness,
        'select count(*)::int as vouchers, count(distinct code_id)::int as codes from voucher where reward_id = ?',
        [rewardId],
      );
      expect(codes).toEqual({ vouchers: 10, codes: 10 });
      expect(await balanceOf(member)).toBe(40);
    }, 60_000);
  });

  // "With `Idempotency-Key`, a retried purchase answers the first one and charges nothing more"
  it('the same Idempotency-Key twice: one charge, the first answer replayed', async () => {
    const member = await memberWith(300);
    const rewardId = await rewardFor(harness, tenant, { price: 100 });
    const headers = { 'Idempotency-Key': `buy-${randomUUID()}` };
    const first = await buy(member.token, reward(rewardId), headers);
    expect(first.status).toBe(201);
    const again = await buy(member.token, reward(rewardId), headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await jsonOf(again)).data).toEqual((await jsonOf(first)).data);
    expect(await balanceOf(member)).toBe(200);
    expect(await vouchersOf(member)).toBe(1);
  });

  // "… and charges nothing more, even when the first request's process died after it committed."
  it('the API killed with SIGKILL between the purchase and its answer: the retry with the key charges once', async () => {
    const member = await memberWith(300);
    const rewardId = await rewardFor(harness, tenant, { price: 100 });
    const key = `killed-${randomUUID()}`;
    // The purchase commits (its transaction ends before the answer is stored), then the request
    // goes no further than storing its answer, and the process dies there.
    await postKilledBeforeAnswer(harness, {
      path: '/v1/purchases',
      headers: { 'X-Api-Key': tenant.key, Authorization: `Bearer ${member.token}`, 'Idempotency-Key': key },
      body: reward(rewardId),
      leaseMs: LEASE_MS,
    });
    const claim = () =>
      queryOne(
        harness,
        'select reserved_id as "reservedId", response_status as status, claimed_until < now() as lapsed from idempotency_record where tenant_id = ? order by created_at desc limit 1',
        [tenant.id],
      );
    const { reservedId, status } = await claim();
    expect(status).toBeNull();
    // The first purchase committed: charged once, under the id reserved with the key.
    const committed = await queryOne(harness, 'select user_id from purchase where id = ?', [reservedId]);
    expect(committed.user_id).toBe(member.id);
    expect(await balanceOf(member)).toBe(200);

    await expect.poll(async () => (await claim()).lapsed, { timeout: 10_000 }).toBe(true);
    const retry = await buy(member.token, reward(rewardId), { 'Idempotency-Key': key });
    expect(retry.status).toBe(201);
    expect((await jsonOf(retry)).data).toMatchObject({ id: reservedId, user: { id: member.id }, points: 100 });
    const replayed = await buy(member.token, reward(rewardId), { 'Idempotency-Key': key });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await jsonOf(replayed)).data.id).toBe(reservedId);
    expect(await balanceOf(member)).toBe(200);
    expect(await vouchersOf(member)).toBe(1);
  }, 120_000);
});

describe('the lists of purchases', () => {
  let buyer: Member;
  let bystander: Member;
  let coffee: string;
  let cake: string;

  beforeAll(async () => {
    buyer = await memberWith(1000);
    bystander = await memberWith(1000);
    coffee = await rewardFor(harness, tenant, { name: 'Coffee for the list', price: 10 });
    cake = await rewardFor(harness, tenant, { name: 'Cake for the list', price: 20 });
    for (const [member, rewardId] of [
      [buyer, coffee],
      [buyer, cake],
      [bystander, coffee],
    ] as const) {
      clock.advance(60_000);
      expect((await buy(member.token, reward(rewardId))).status).toBe(201);
    }
  });

  // docs/rewards.md#purchases: GET /v1/purchases (`admin:rewards`) filters on the member, the reward and createdAt.
  it('GET /v1/purchases filters on user.id, resource.id and createdAt, each item naming its reward', async () => {
    const list = (filter: string) =>
      harness.request(tenant, 'GET', `/v1/purchases?filter=${encodeURIComponent(filter)}`, { token: rewardsAdmin });
    const byBuyer = await list(`user.id:(eq:'${buyer.id}')`);
    expect(byBuyer.status).toBe(200);
    expect(byBuyer.headers.get('content-range')).toBe('purchase 0-1/2');
    const items = (await jsonOf(byBuyer)).data;
    // Newest first.
    expect(items.map((item: { resource: object }) => item.resource)).toEqual([
      { type: 'REWARD', id: cake, name: 'Cake for the list' },
      { type: 'REWARD', id: coffee, name: 'Coffee for the list' },
    ]);
    const ofCoffee = (await jsonOf(await list(`resource.id:(eq:'${coffee}')`))).data;
    expect(ofCoffee.map((item: { user: { id: string } }) => item.user.id).sort()).toEqual(
      [buyer.id, bystander.id].sort(),
    );
    const latest = await list(
      `resource.id:(in:!('${coffee}','${cake}')),createdAt:(gt:'${new Date(clock.now() - 90_000).toISOString()}')`,
    );
    expect(latest.headers.get('content-range')).toBe('purchase 0-1/2');
    expect((await harness.request(tenant, 'GET', '/v1/purchases', { token: usersAdmin })).status).toBe(401);
    expect((await harness.request(tenant, 'GET', '/v1/purchases', { token: buyer.token })).status).toBe(401);
  });

  it("GET /v1/users/me/purchases and /v1/users/{id}/purchases: one member's purchases only", async () => {
    const mine = await harness.request(tenant, 'GET', '/v1/users/me/purchases', { token: buyer.token });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-range')).toBe('purchase 0-1/2');
    expect((await jsonOf(mine)).data.every((item: { user: { id: string } }) => item.user.id === buyer.id)).toBe(true);
    const theirs = await harness.request(tenant, 'GET', `/v1/users/${bystander.authIdentifier}/purchases`, {
      token: usersAdmin,
    });
    expect(theirs.headers.get('content-range')).toBe('purchase 0-0/1');
    expect((await jsonOf(theirs)).data[0]).toMatchObject({ user: { id: bystander.id }, resource: { id: coffee } });
    const filtered = await harness.request(
      tenant,
      'GET',
      `/v1/users/${buyer.id}/purchases?filter=${encodeURIComponent(`resource.id:(eq:'${cake}')`)}`,
      { token: usersAdmin },
    );
    expect(filtered.headers.get('content-range')).toBe('purchase 0-0/1');
    expect(
      (await harness.request(tenant, 'GET', `/v1/users/${buyer.id}/purchases`, { token: rewardsAdmin })).status,
    ).toBe(401);
    expect((await harness.request(tenant, 'GET', '/v1/users/nobody/purchases', { token: usersAdmin })).status).toBe(
      404,
    );
  });
});
