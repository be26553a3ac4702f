import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let harness: Harness;
let tenant: TestTenant;
let till: string;
let admin: string;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  till = await harness.adminToken(tenant, ['admin:orders']);
  admin = await harness.adminToken(tenant, [
    'admin:users',
    'admin:reactors',
    'admin:events',
    'admin:rules',
    'admin:event_types',
  ]);
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

const order = (overrides: Record<string, unknown> = {}) => ({
  transactionId: `T-${Math.random().toString(36).slice(2)}`,
  total: 42.5,
  subtotal: 40,
  currency: 'EUR',
  locationId: 'STORE-7',
  cashierId: 'C-3',
  lineItems: [{ identifier: 'SKU-1', description: 'Coffee beans', quantity: 1, unitPrice: 40, totalPrice: 40 }],
  occurredAt: '2026-11-23T08:15:00Z',
  ...overrides,
});
const placeOrder = (body: unknown, token = till) => harness.request(tenant, 'POST', '/v1/orders', { token, body });

describe('POST /v1/orders (docs/receipts.md#orders)', () => {
  // docs/receipts.md#orders: "Reporting a transaction by order" and "Showing points earned".
  it('follows the whole point-of-sale flow: order, ORDER_PLACED, points, and the documented way of showing them', async () => {
    // 1-2. Identify the member; keep the authIdentifier.
    const member = await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/users/shopper-1', { token: admin }));
    // 3. After payment, submit the order with submitter set to that authIdentifier.
    const body = order({ submitter: { authIdentifier: member.authIdentifier } });
    const response = await placeOrder(body);
    expect(response.status).toBe(201);
    const placed = await dataOf<Json>(response);
    expect(placed).toMatchObject({
      id: expect.any(String),
      transactionId: body.transactionId,
      locationId: 'STORE-7',
      total: 42.5,
      submitter: { authIdentifier: 'shopper-1' },
      eventId: expect.any(Number),
    });

    // 4. "The receipts service reports ORDER_PLACED, which triggers reactors that award points."
    // Showing points earned: "wait 1 to 2 seconds, call GET /events filtered by subject.authIdentifier and type.name equal to
    // ORDER_PLACED, check that the most recent event's payload has the same transaction id, then call GET /events/{id}/reactions
    // and read totalPoints."
    await harness.request(tenant, 'GET', `/v1/events/${placed.eventId}/reactions?wait=5000`);
    const filter = encodeURIComponent("subject.authIdentifier:(eq:'shopper-1'),type.name:(eq:'ORDER_PLACED')");
    const events = await dataOf<Json[]>(
      await harness.request(tenant, 'GET', `/v1/events?filter=${filter}&sort=reportedAt&order=DESC`, { token: admin }),
    );
    const latest = events[0];
    // docs/events.md#system-event-types: ORDER_PLACED is {orderId, transactionId, locationId, cashierId, total, subtotal, currency, lineItems, occurredAt}.
    expect(latest.payload).toEqual({
      orderId: placed.id,
      transactionId: body.transactionId,
      locationId: 'STORE-7',
      cashierId: 'C-3',
      total: 42.5,
      subtotal: 40,
      currency: 'EUR',
      lineItems: body.lineItems,
      occurredAt: '2026-11-23T08:15:00.000Z',
    });
    const reactions = await dataOf<Json>(await harness.request(tenant, 'GET', `/v1/events/${latest.id}/reactions`));
    expect(reactions.totalPoints).toBe(42);
    const wallet = await dataOf<Json>(
      await harness.request(tenant, 'GET', '/v1/users/shopper-1/wallet', { token: admin }),
    );
    expect(wallet.points).toBe(42);
  });

  it('a sale to a non-member omits submitter and reports ORDER_PLACED with the service subject, absent values omitted', async () => {
    const body = order({ subtotal: undefined, currency: undefined, cashierId: undefined, occurredAt: undefined });
    const placed = await dataOf<Json>(await placeOrder(body));
    expect(placed.submitter).toBeNull();
    await harness.request(tenant, 'GET', `/v1/events/${placed.eventId}/reactions?wait=5000`);
    const event = await dataOf<Json>(
      await harness.request(tenant, 'GET', `/v1/events/${placed.eventId}`, { token: admin }),
    );
    expect(event.subject).toEqual({ id: harness.config.publicBaseUrl });
    expect(Object.keys(event.payload).sort()).toEqual(['lineItems', 'locationId', 'orderId', 'total', 'transactionId']);
  });

  it('"The same transactionId at the same locationId again returns the first order (200), not a second event", for the same body', async () => {
    const body = order({ submitter: { authIdentifier: 'shopper-1' } });
    const first = await dataOf<Json>(await placeOrder(body));
    const again = await placeOrder(body);
    expect(again.status).toBe(200);
    expect(await dataOf(again)).toEqual(first);
    // The same transaction at another store is another order.
    const elsewhere = await placeOrder({ ...body, locationId: 'STORE-8' });
    expect(elsewhere.status).toBe(201);
    for (const eventId of [first.eventId, (await dataOf<Json>(elsewhere)).eventId])
      await harness.request(tenant, 'GET', `/v1/events/${eventId}/reactions?wait=5000`);
    const count = await queryOne(
      harness,
      `select count(*)::int as n from event e join event_type t on t.id = e.type_id where e.tenant_id = ? and t.name = 'ORDER_PLACED' and e.payload->>'transactionId' = ?`,
      [tenant.id, body.transactionId],
    );
    expect(count.n).toBe(2);
  });

  // docs/receipts.md#orders: "The same transactionId at the same locationId with a different body is 409
  // ConflictError naming the differing fields in data.fields."
  it('the same transaction with another body is 409 ConflictError naming each field that differs, and changes nothing', async () => {
    const body = order({ submitter: { authIdentifier: 'shopper-1' } });
    const first = await dataOf<Json>(await placeOrder(body));
    const changed = await placeOrder({
      ...body,
      total: 99,
      cashierId: undefined,
      lineItems: [{ ...body.lineItems[0], quantity: 2 }],
      submitter: undefined,
    });
    expect(changed.status).toBe(409);
    const envelope = await jsonOf(changed);
    expect(envelope.data).toMatchObject({
      name: 'ConflictError',
      fields: ['total', 'cashierId', 'lineItems', 'submitter'],
      orderId: first.id,
    });
    expect(envelope.message).toContain('total, cashierId, lineItems, submitter');
    for (const [field, value] of Object.entries({
      subtotal: 41,
      currency: 'USD',
      occurredAt: '2026-11-23T08:16:00Z',
      lineItems: [...body.lineItems, { identifier: 'SKU-2' }],
    })) {
      const answer = await placeOrder({ ...body, [field]: value });
      expect(answer.status).toBe(409);
      expect((await jsonOf(answer)).data.fields).toEqual([field]);
    }
    // The first order stands, and a retry of its own body still gets it.
    const retry = await placeOrder(body);
    expect(retry.status).toBe(200);
    expect(await dataOf(retry)).toEqual(first);
  });

  it('amounts are kept to 4 decimal places, rounded as PostgreSQL rounds, and answered and reported as kept', async () => {
    const body = order({ total: 10.123456, subtotal: 9.99995 });
    const placed = await placeOrder(body);
    expect(placed.status).toBe(201);
    const first = await dataOf<Json>(placed);
    expect(first).toMatchObject({ total: 10.1235, subtotal: 10 });
    const read = await dataOf<Json>(await harness.request(tenant, 'GET', `/v1/orders/${first.id}`, { token: till }));
    expect(read).toMatchObject({ total: 10.1235, subtotal: 10 });
    expect(await dataOf(await placeOrder(body))).toEqual(first);
    await harness.request(tenant, 'GET', `/v1/events/${first.eventId}/reactions?wait=5000`);
    const event = await dataOf<Json>(
      await harness.request(tenant, 'GET', `/v1/events/${first.eventId}`, { token: admin }),
    );
    expect(event.payload).toMatchObject({ total: 10.1235, subtotal: 10 });
  });

  it('"same" compares what is stored: the instant, amounts to 4 places, absent as null, the catalogue\'s product mapping aside', async () => {
    await harness.request(tenant, 'POST', '/v1/products', {
      token: admin,
      body: { name: 'Tea', identifiers: ['SKU-TEA'] },
    });
    const body = order({
      total: 10.00005,
      subtotal: undefined,
      occurredAt: '2026-11-23T09:15:00+01:00',
      lineItems: [{ identifier: 'SKU-TEA', quantity: 1, unitPrice: 10 }],
    });
    const first = await placeOrder(body);
    expect(first.status).toBe(201);
    expect((await dataOf<Json>(first)).lineItems[0].productId).toEqual(expect.any(String));
    const sameAgain = [
      body,
      { ...body, occurredAt: '2026-11-23T08:15:00.000Z' },
      { ...body, lineItems: [{ unitPrice: 10, quantity: 1, identifier: 'SKU-TEA' }] },
    ];
    for (const again of sameAgain) expect((await placeOrder(again)).status).toBe(200);
    const withSubtotal = await placeOrder({ ...body, subtotal: 10 });
    expect((await jsonOf(withSubtotal)).data.fields).toEqual(['subtotal']);
  });

  it('two tills racing with the same transaction make one order and one event', async () => {
    const body = order();
    const answers = await Promise.all(Array.from({ length: 5 }, () => placeOrder(body)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(await Promise.all(answers.map(async (answer) => (await dataOf<Json>(answer)).eventId)));
    expect(ids.size).toBe(1);
  });

  it.each([
    ['a name (personal data)', order({ customerName: 'Jane Doe' })],
    ['an email in the submitter', order({ submitter: { authIdentifier: 'shopper-1', email: 'jane@example.com' } })],
    ['an unknown line item field', order({ lineItems: [{ identifier: 'SKU-1', loyaltyEmail: 'x@example.com' }] })],
    [
      'line item metadata, where anything could ride along',
      order({ lineItems: [{ identifier: 'SKU-1', metadata: { email: 'jane@example.com' } }] }),
    ],
    ['no transactionId', { ...order(), transactionId: undefined }],
    ['a negative total', order({ total: -1 })],
    ['a currency that is no ISO code', order({ currency: 'euro' })],
  ])('refuses %s with 400: "no other fields (personal data cannot be smuggled in)"', async (_case, body) => {
    const response = await placeOrder(body);
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data.name).toBe('ValidationError');
  });

  it('"An unknown submitter is 404"', async () => {
    const response = await placeOrder(order({ submitter: { authIdentifier: 'nobody' } }));
    expect(response.status).toBe(404);
    expect((await jsonOf(response)).data.name).toBe('NotFoundError');
  });

  it('needs admin:orders', async () => {
    expect((await placeOrder(order(), admin)).status).toBe(401);
  });

  it('maps line items to catalogue products, and lists orders within the tenant', async () => {
    const product = await dataOf<{ id: string }>(
      await harness.request(tenant, 'POST', '/v1/products', {
        token: admin,
        body: { name: 'Beans', identifiers: ['SKU-BEANS'] },
      }),
    );
    const placed = await dataOf<Json>(
      await placeOrder(order({ transactionId: 'T-LISTED', lineItems: [{ identifier: 'sku-beans', quantity: 2 }] })),
    );
    expect(placed.lineItems).toEqual([{ identifier: 'sku-beans', quantity: 2, productId: product.id }]);
    const list = await harness.request(
      tenant,
      'GET',
      `/v1/orders?filter=${encodeURIComponent("transactionId:(eq:'T-LISTED')")}`,
      { token: till },
    );
    expect(await dataOf(list)).toEqual([placed]);
    expect(await dataOf(await harness.request(tenant, 'GET', `/v1/orders/${placed.id}`, { token: till }))).toEqual(
      placed,
    );
    const other = await harness.createTenant();
    expect(
      (
        await harness.request(other, 'GET', `/v1/orders/${placed.id}`, {
          token: await harness.adminToken(other, ['admin:orders']),
        })
      ).status,
    ).toBe(404);
  });
});
