import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorOf } from '../../shared/audit/audit-log.js';
import { givePoints } from '../support/rewards-setup.js';
import { purchase } from '../../shared/rewards/purchase-service.js';
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
import { ManualClock } from '../support/manual-clock.js';

const HOUR_MS = 3_600_000;
/** Where the manual clock starts: rewards are created and listed against it. */
const START = Date.parse('2026-03-02T09:00:00.000Z');

let harness: Harness;
let clock: ManualClock;
let tenant: TestTenant;
let other: TestTenant;
let admin: string;
let otherAdmin: string;

beforeAll(async () => {
  clock = new ManualClock();
  clock.advance(START);
  harness = await createHarness({ clock });
  [tenant, other] = [await harness.createTenant(), await harness.createTenant()];
  admin = await harness.adminToken(tenant, ['admin:rewards', 'admin:users']);
  otherAdmin = await harness.adminToken(other, ['admin:rewards']);
});
afterAll(() => harness.close());

const at = (ms: number) => new Date(ms).toISOString();

function call(method: string, path: string, body?: unknown, options: { token?: string; into?: TestTenant } = {}) {
  return harness.request(options.into ?? tenant, method, path, {
    token: options.token ?? admin,
    ...(body === undefined ? {} : { body }),
  });
}

async function created(body: Json, into = tenant, token = admin): Promise<Json> {
  const response = await call('POST', '/v1/rewards', body, { into, token });
  if (response.status !== 201)
    throw new Error(`creating a reward answered ${response.status}: ${await response.text()}`);
  return dataOf<Json>(response);
}

const coffee = { type: 'VOUCHER', name: 'Free coffee', price: 100 };

async function refusal(method: string, path: string, body: unknown): Promise<Json[]> {
  const response = await call(method, path, body);
  expect(response.status).toBe(400);
  const envelope = await jsonOf(response);
  expect(envelope.data.name).toBe('ValidationError');
  return envelope.data.errors.map((issue: Json) => issue.property);
}

describe('POST /v1/rewards', () => {
  // docs/rewards.md#rewards: the fields of a reward and their defaults.
  it('creates a reward with the fields given and the defaults for the rest, audited as reward.created', async () => {
    const response = await call('POST', '/v1/rewards', coffee);
    expect(response.status).toBe(201);
    const reward = await dataOf<Json>(response);
    expect(reward).toEqual({
      id: expect.any(String),
      type: 'VOUCHER',
      name: 'Free coffee',
      summary: null,
      pictureUrl: null,
      price: 100,
      cost: 0,
      purchasable: true,
      availableFrom: null,
      availableUntil: null,
      stock: null,
      voucherValidityDays: 365,
      redemptionWindowMinutes: 15,
      defaultLocale: 'en',
      redemptionMessage: null,
      discounts: [],
      partnerProductId: null,
      createdAt: at(START),
      updatedAt: at(START),
    });
    const { job } = await queryOne(
      harness,
      "select job from audit_outbox where tenant_id = ? and job->>'action' = 'reward.created' and job->>'resourceId' = ?",
      [tenant.id, reward.id],
    );
    expect(job).toMatchObject({ resourceType: 'reward', before: null, after: reward });
  });

  it('stores every field it is given', async () => {
    const body = {
      type: 'VOUCHER',
      name: 'Espresso',
      summary: 'One espresso',
      pictureUrl: 'https://images.example.org/espresso.png',
      price: 0,
      cost: 0.85,
      purchasable: false,
      availableFrom: at(START - HOUR_MS),
      availableUntil: at(START + HOUR_MS),
      stock: 0,
      voucherValidityDays: 3650,
      redemptionWindowMinutes: 10080,
      defaultLocale: 'pt-BR',
      redemptionMessage: 'Mostre este código',
      discounts: [{ type: 'FIXED', value: '2.50', sku: 'DISC-1', productSku: 'SKU-1' }],
    };
    expect(await created(body)).toMatchObject(body);
  });

  // docs/api-conventions.md#idempotency: the same key and body return the first response.
  it('with the same Idempotency-Key again answers the first reward and creates no second', async () => {
    const key = randomUUID();
    const body = { ...coffee, name: `Once ${key}` };
    const headers = { 'Idempotency-Key': key };
    const first = await harness.request(tenant, 'POST', '/v1/rewards', { token: admin, body, headers });
    const again = await harness.request(tenant, 'POST', '/v1/rewards', { token: admin, body, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await dataOf<Json>(again)).id).toBe((await dataOf<Json>(first)).id);
    expect(await queryOne(harness, 'select count(*)::int as n from reward where name = ?', [body.name])).toEqual({
      n: 1,
    });
  });

  // docs/rewards.md#rewards: "`availableUntil` is after `availableFrom`".
  it('refuses availableUntil not after availableFrom, naming availableUntil', async () => {
    expect(
      await refusal('POST', '/v1/rewards', { ...coffee, availableFrom: at(START), availableUntil: at(START) }),
    ).toEqual(['availableUntil']);
  });

  // docs/api-conventions.md#request-bodies: a bad field is 400 ValidationError naming it.
  it.each([
    ['type', { type: 'COUPON' }],
    ['type', { type: undefined }],
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(257) }],
    ['summary', { summary: 5 }],
    ['pictureUrl', { pictureUrl: 'not a url' }],
    ['price', { price: -1 }],
    ['price', { price: 1.5 }],
    ['price', { price: '100' }],
    ['cost', { cost: -0.01 }],
    ['purchasable', { purchasable: 'yes' }],
    ['availableFrom', { availableFrom: 'tomorrow' }],
    ['availableUntil', { availableUntil: '2026-13-01' }],
    ['stock', { stock: -1 }],
    ['stock', { stock: 2.5 }],
    ['voucherValidityDays', { voucherValidityDays: 0 }],
    ['voucherValidityDays', { voucherValidityDays: 3651 }],
    ['redemptionWindowMinutes', { redemptionWindowMinutes: 0 }],
    ['redemptionWindowMinutes', { redemptionWindowMinutes: 10081 }],
    ['defaultLocale', { defaultLocale: 'english!' }],
    ['redemptionMessage', { redemptionMessage: 42 }],
    ['discounts', { discounts: {} }],
    ['discounts.0.type', { discounts: [{ type: 'PERCENT', value: '10', sku: 'D', productSku: 'P' }] }],
    ['discounts.0.value', { discounts: [{ type: 'FIXED', value: '2,50', sku: 'D', productSku: 'P' }] }],
    ['discounts.0.value', { discounts: [{ type: 'FIXED', value: 2.5, sku: 'D', productSku: 'P' }] }],
    ['discounts.0.sku', { discounts: [{ type: 'FIXED', value: '2.50', productSku: 'P' }] }],
    ['discounts.0.productSku', { discounts: [{ type: 'FIXED', value: '2.50', sku: 'D', productSku: '' }] }],
    ['discounts.0.percent', { discounts: [{ type: 'FIXED', value: '2.50', sku: 'D', productSku: 'P', percent: 5 }] }],
    ['colour', { colour: 'red' }],
  ])('refuses a bad %s: %j', async (field, change) => {
    expect(await refusal('POST', '/v1/rewards', { ...coffee, ...change })).toEqual([field]);
  });

  it('tells an unknown discount type the types there are', async () => {
    const response = await call('POST', '/v1/rewards', {
      ...coffee,
      discounts: [{ type: 'PERCENT', value: '10', sku: 'D', productSku: 'P' }],
    });
    const { data } = await jsonOf(response);
    expect(data.errors[0].constraints).toEqual({ const: 'discounts.0.type must be equal to "FIXED"' });
  });
});

describe('GET and PATCH /v1/rewards/{id}', () => {
  it('reads a reward by its id', async () => {
    const reward = await created(coffee);
    const response = await call('GET', `/v1/rewards/${reward.id}`);
    expect(response.status).toBe(200);
    expect(await dataOf(response)).toEqual(reward);
  });

  // docs/rewards.md#rewards: another tenant's reward does not exist for this one.
  it("answers 404 for an unknown id and for another tenant's reward, and changes nothing", async () => {
    const theirs = await created(coffee, other, otherAdmin);
    for (const id of [randomUUID(), theirs.id, 'not-a-uuid'])
      expect((await call('GET', `/v1/rewards/${id}`)).status, id).toBe(404);
    expect((await call('PATCH', `/v1/rewards/${theirs.id}`, { price: 1 })).status).toBe(404);
    expect((await call('GET', `/v1/rewards/${theirs.id}`, undefined, { into: other, token: otherAdmin })).status).toBe(
      200,
    );
    expect(await queryOne(harness, 'select price::int from reward where id = ?', [theirs.id])).toEqual({ price: 100 });
  });

  it('changes the fields given, keeps the rest, clears with null, and is audited as reward.updated', async () => {
    const reward = await created({ ...coffee, summary: 'A coffee', stock: 10 });
    clock.advance(60_000);
    const response = await call('PATCH', `/v1/rewards/${reward.id}`, {
      price: 250,
      summary: null,
      discounts: [{ type: 'FIXED', value: '1', sku: 'D', productSku: 'P' }],
    });
    expect(response.status).toBe(200);
    const changed = await dataOf<Json>(response);
    expect(changed).toEqual({
      ...reward,
      price: 250,
      summary: null,
      discounts: [{ type: 'FIXED', value: '1', sku: 'D', productSku: 'P' }],
      updatedAt: at(clock.now()),
    });
    const { job } = await queryOne(
      harness,
      "select job from audit_outbox where job->>'action' = 'reward.updated' and job->>'resourceId' = ?",
      [reward.id],
    );
    expect(job).toMatchObject({ before: reward, after: changed });
  });

  it('keeps cost to 4 decimal places, rounded as PostgreSQL rounds, and answers it as kept', async () => {
    const reward = await created({ ...coffee, cost: 1.123456 });
    expect(reward.cost).toBe(1.1235);
    const changed = await dataOf<Json>(await call('PATCH', `/v1/rewards/${reward.id}`, { cost: 2.00005 }));
    expect(changed.cost).toBe(2.0001);
    expect((await dataOf<Json>(await call('GET', `/v1/rewards/${reward.id}`))).cost).toBe(2.0001);
  });

  it('cannot change the type', async () => {
    const reward = await created(coffee);
    expect(await refusal('PATCH', `/v1/rewards/${reward.id}`, { type: 'PARTNER1_PRODUCT' })).toEqual(['type']);
  });

  // docs/rewards.md#rewards: "`availableUntil` is after `availableFrom`", as the reward stands after the change.
  it('checks the window as the change leaves it, whichever end moves', async () => {
    const reward = await created({ ...coffee, availableFrom: at(START), availableUntil: at(START + 2 * HOUR_MS) });
    const path = `/v1/rewards/${reward.id}`;
    expect(await refusal('PATCH', path, { availableUntil: at(START - HOUR_MS) })).toEqual(['availableUntil']);
    expect(await refusal('PATCH', path, { availableFrom: at(START + 3 * HOUR_MS) })).toEqual(['availableUntil']);
    const cleared = await call('PATCH', path, { availableUntil: null });
    expect(await dataOf(cleared)).toMatchObject({ availableFrom: at(START), availableUntil: null });
    expect(await dataOf(await call('PATCH', path, { availableFrom: at(START + 3 * HOUR_MS) }))).toMatchObject({
      availableFrom: at(START + 3 * HOUR_MS),
    });
  });

  it.each([
    ['price', { price: -5 }],
    ['stock', { stock: -1 }],
    ['voucherValidityDays', { voucherValidityDays: 4000 }],
    ['redemptionWindowMinutes', { redemptionWindowMinutes: 20000 }],
    ['pictureUrl', { pictureUrl: 'picture' }],
    ['discounts.0.type', { discounts: [{ type: 'PERCENT', value: '1', sku: 'D', productSku: 'P' }] }],
    ['id', { id: randomUUID() }],
  ])('refuses a bad %s in a change: %j', async (field, change) => {
    const reward = await created(coffee);
    expect(await refusal('PATCH', `/v1/rewards/${reward.id}`, change)).toEqual([field]);
  });
});

describe('who may call', () => {
  // docs/rewards.md#rewards: "A reward (`/v1/rewards`, scope `admin:rewards`)".
  it('takes admin:rewards; another scope, or a member token beyond the list, is 401', async () => {
    const reward = await created(coffee);
    const wrongScope = await harness.adminToken(tenant, ['admin:users']);
    await registerMember(harness, tenant, admin, 'scope-member');
    const member = await harness.userToken(tenant, 'scope-member');
    for (const token of [wrongScope, member]) {
      expect((await call('POST', '/v1/rewards', coffee, { token })).status).toBe(401);
      expect((await call('GET', `/v1/rewards/${reward.id}`, undefined, { token })).status).toBe(401);
      expect((await call('PATCH', `/v1/rewards/${reward.id}`, { price: 1 }, { token })).status).toBe(401);
    }
    expect((await call('GET', '/v1/rewards', undefined, { token: wrongScope })).status).toBe(401);
  });
});

describe('GET /v1/rewards with an admin token', () => {
  let listed: TestTenant;
  let token: string;
  beforeAll(async () => {
    listed = await harness.createTenant();
    token = await harness.adminToken(listed, ['admin:rewards']);
    await created({ type: 'VOUCHER', name: 'Cheap', price: 10 }, listed, token);
    await created({ type: 'VOUCHER', name: 'Dear', price: 900, purchasable: false }, listed, token);
    await created({ type: 'PARTNER1_PRODUCT', name: 'Partner', price: 500, partnerProductId: 'P-1' }, listed, token);
  });

  const list = (query: string) => harness.request(listed, 'GET', `/v1/rewards${query}`, { token });
  const names = async (response: Response) => (await dataOf<Json[]>(response)).map((reward) => reward.name);

  // docs/api-conventions.md#lists: a page with Content-Range, filtered and sorted over the allowed fields.
  it('lists every reward of the tenant, whatever can be bought, with Content-Range', async () => {
    const response = await list('?sort=price&order=ASC');
    expect(await names(response)).toEqual(['Cheap', 'Partner', 'Dear']);
    expect(response.headers.get('Content-Range')).toBe('reward 0-2/3');
  });

  it.each([
    ["type:(eq:'PARTNER1_PRODUCT')", ['Partner']],
    ['purchasable:(eq:!f)', ['Dear']],
    ["name:(like:'Ch%')", ['Cheap']],
    [`availableFrom:(eq:!n)`, ['Cheap', 'Dear', 'Partner']],
  ])('filters on %s', async (filter, expected) => {
    const response = await list(`?sort=name&order=ASC&filter=${encodeURIComponent(filter)}`);
    expect(response.status).toBe(200);
    expect(await names(response)).toEqual(expected);
  });

  it('refuses a filter on a field it does not allow', async () => {
    expect((await list(`?filter=${encodeURIComponent('cost:(eq:1)')}`)).status).toBe(400);
  });
});

// docs/rewards.md#rewards: "A member's token on `GET /v1/rewards` lists what that member can buy now:
// purchasable, inside its window, in stock, each with `affordable` (the balance covers the price)".
describe('GET /v1/rewards with a member token', () => {
  let shop: TestTenant;
  let shopAdmin: string;
  let memberToken: string;
  let memberId: string;

  beforeAll(async () => {
    shop = await harness.createTenant();
    shopAdmin = await harness.adminToken(shop, ['admin:rewards', 'admin:users']);
    memberId = (await registerMember(harness, shop, shopAdmin, 'shopper')).id;
    memberToken = await harness.userToken(shop, 'shopper');
    await givePoints(harness, shop, memberId, 500);
  });

  const add = (body: Json) => created(body, shop, shopAdmin);
  async function offers(): Promise<Record<string, boolean>> {
    const response = await harness.request(shop, 'GET', '/v1/rewards?limit=1000&sort=name&order=ASC', {
      token: memberToken,
    });
    expect(response.status).toBe(200);
    return Object.fromEntries((await dataOf<Json[]>(response)).map((reward) => [reward.name, reward.affordable]));
  }

  it('lists what the member can buy now, each affordable or not, as the clock moves through the windows', async () => {
    const now = clock.now();
    await add({ type: 'VOUCHER', name: 'Affordable', price: 500 });
    await add({ type: 'VOUCHER', name: 'Too dear', price: 501 });
    await add({ type: 'VOUCHER', name: 'Not for sale', price: 1, purchasable: false });
    await add({ type: 'VOUCHER', name: 'Sold out', price: 1, stock: 0 });
    await add({ type: 'VOUCHER', name: 'In stock', price: 1, stock: 1 });
    // A partner product is offered only where the tenant has that partner's endpoint, and this one has none.
    await add({ type: 'PARTNER1_PRODUCT', name: 'Partner', price: 1, partnerProductId: 'P-1' });
    await add({ type: 'VOUCHER', name: 'Later', price: 1, availableFrom: at(now + HOUR_MS) });
    await add({ type: 'VOUCHER', name: 'Ending', price: 1, availableUntil: at(now + 2 * HOUR_MS) });
    expect(await offers()).toEqual({ Affordable: true, Ending: true, 'In stock': true, 'Too dear': false });

    clock.advance(HOUR_MS);
    expect(await offers()).toEqual({
      Affordable: true,
      Ending: true,
      'In stock': true,
      Later: true,
      'Too dear': false,
    });

    clock.advance(HOUR_MS);
    expect(await offers()).toEqual({ Affordable: true, 'In stock': true, Later: true, 'Too dear': false });
  });

  it('shows the reward view with affordable', async () => {
    const reward = await add({ type: 'VOUCHER', name: 'Shape', price: 7 });
    const response = await harness.request(
      shop,
      'GET',
      `/v1/rewards?filter=${encodeURIComponent("name:(eq:'Shape')")}`,
      {
        token: memberToken,
      },
    );
    expect(await dataOf(response)).toEqual([{ ...reward, affordable: true }]);
  });

  it('leaves out a reward whose pool has no free code, and one whose stock the last purchase took', async () => {
    const pooled = await add({ type: 'VOUCHER', name: 'Pooled', price: 1 });
    const lastOne = await add({ type: 'VOUCHER', name: 'Last one', price: 1, stock: 1 });
    const upload = await harness.request(shop, 'POST', `/v1/rewards/${pooled.id}/codes`, {
      token: shopAdmin,
      body: { codes: ['ONLY-CODE'] },
    });
    expect(upload.status).toBe(201);
    expect(await offers()).toMatchObject({ Pooled: true, 'Last one': true });
    for (const reward of [pooled, lastOne])
      await purchase(
        { ...harness.context, codes: harness.context.voucherCodes },
        harness.context.orm.em.fork(),
        {
          id: randomUUID(),
          tenantId: shop.id,
          userId: memberId,
          actor: actorOf(undefined),
          resource: { type: 'REWARD', id: reward.id },
          policy: pointsPolicyOf({}),
        },
        new Date(clock.now()),
      );
    const left = await offers();
    expect(left).not.toHaveProperty('Pooled');
    expect(left).not.toHaveProperty('Last one');
  });

  it('is 404 for a token whose member is not registered', async () => {
    const stranger = await harness.userToken(shop, 'nobody-here');
    expect((await harness.request(shop, 'GET', '/v1/rewards', { token: stranger })).status).toBe(404);
  });
});
