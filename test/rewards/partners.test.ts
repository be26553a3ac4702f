import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'bullmq';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorOf } from '../../shared/audit/audit-log.js';
import { refund } from '../../shared/ledger/spend-and-adjust.js';
import { givePoints } from '../support/rewards-setup.js';
import { recoverStranded, recoveryDependencies } from '../../shared/recovery/recover-stranded.js';
import { partnerOrderDependencies, placePartnerOrder } from '../../shared/rewards/partner-orders.js';
import { findPurchase, purchase } from '../../shared/rewards/purchase-service.js';
import { createReward } from '../../shared/rewards/reward-service.js';
import type { RewardType } from '../../shared/rewards/reward.entity.js';
import { checkConfiguration } from '../../shared/tenants/check-settings.js';
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

/** How the local partner answers an order, by the product it names. */
type Behaviour = 'accept' | 'hold' | 'refuse' | 'down';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let server: Server;
let baseUrl: string;
let workers: Worker[];
const secrets = { PARTNER1: randomBytes(24).toString('base64url'), PARTNER2: randomBytes(24).toString('base64url') };
const received: Record<string, Received[]> = {};
/** Orders the partner holds unanswered until the test answers them. */
const held = new Map<string, ServerResponse>();

function behaviourOf(productId: string): Behaviour {
  return productId.split(':')[0] as Behaviour;
}

beforeAll(async () => {
  // The late partner holds its answer until the test releases it, so no wait here races a timer;
  // the prompt one answers at once, well within PARTNER_CONFIRM_WAIT_MS even on a busy machine.
  harness = await createHarness({
    fetchAllowPrivateAddresses: true,
    partnerConfirmWaitMs: 2000,
    partnerRetryBaseMs: 2,
  });
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const order = JSON.parse(body) as { orderId: string; productId: string };
      (received[order.orderId] ??= []).push({ headers: request.headers, body });
      const behaviour = behaviourOf(order.productId);
      if (behaviour === 'hold') held.set(order.orderId, response);
      else if (behaviour === 'accept') accept(response, order.orderId);
      else if (behaviour === 'refuse') response.writeHead(422).end('{"error":"product discontinued"}');
      else response.writeHead(503).end('down for maintenance');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tenant = await harness.createTenant({
    configuration: {
      partners: {
        PARTNER1: { url: `${baseUrl}/partner-1/orders`, secret: secrets.PARTNER1 },
        PARTNER2: { url: `${baseUrl}/partner-2/orders`, secret: secrets.PARTNER2 },
      },
    },
  });
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:tenant', 'admin:rewards']);
  workers = startWorkers(harness.context, ['partner-orders']);
});
afterAll(async () => {
  await closeWorkers(workers);
  for (const response of held.values()) response.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await harness.close();
});

function accept(response: ServerResponse, orderId: string): void {
  response.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ reference: `P-${orderId}` }));
}

async function memberWith(points: number): Promise<{ id: string; token: string }> {
  const authIdentifier = `buyer-${randomUUID()}`;
  const member = await registerMember(harness, tenant, admin, authIdentifier);
  await givePoints(harness, tenant, member.id, points);
  return { id: member.id, token: await harness.userToken(tenant, authIdentifier) };
}

async function partnerReward(type: RewardType, behaviour: Behaviour, stock: number | null = null): Promise<string> {
  const reward = await createReward(
    harness.context,
    harness.context.orm.em.fork(),
    { tenantId: tenant.id, actor: null },
    { type, name: `${type} ${behaviour}`, price: 100, stock, partnerProductId: `${behaviour}:${randomUUID()}` },
    new Date(),
  );
  return reward.id;
}

async function buy(token: string, type: RewardType, rewardId: string): Promise<Response> {
  return harness.request(tenant, 'POST', '/v1/purchases', { token, body: { resource: { type, id: rewardId } } });
}

async function balanceOf(userId: string): Promise<number> {
  return (await queryOne(harness, 'select points::int from wallet where user_id = ?', [userId])).points;
}

async function statusOf(purchaseId: string): Promise<string | undefined> {
  const found = (await findPurchase(harness.context.orm.em.fork(), tenant.id, purchaseId)) as Json;
  return found?.status;
}

async function reversalsOf(purchaseId: string): Promise<Json[]> {
  return harness.context.orm.em
    .fork()
    .getConnection()
    .execute("select kind, points::int from ledger_entry where purchase_id = ? and kind = 'REVERSAL'", [purchaseId]);
}

// docs/rewards.md#partner-products
describe('partner products', () => {
  it('PARTNER1: answers at once with orderId and registeredAt, and the partner receives a signed order and confirms it', async () => {
    const member = await memberWith(250);
    const reward = await partnerReward('PARTNER1_PRODUCT', 'accept');
    const response = await buy(member.token, 'PARTNER1_PRODUCT', reward);
    expect(response.status).toBe(201);
    const bought = await dataOf<Json>(response);
    // "partner-1 product: resource, benefit, registeredAt, orderId"
    expect(bought).toMatchObject({
      resource: { type: 'PARTNER1_PRODUCT', id: reward },
      benefit: { type: 'PARTNER1_PRODUCT', id: bought.id },
      orderId: bought.id,
      registeredAt: expect.any(String),
      points: 100,
    });
    expect(bought).not.toHaveProperty('delayed');
    expect(await balanceOf(member.id)).toBe(150);

    await expect.poll(() => statusOf(bought.id), { timeout: 10_000 }).toBe('CONFIRMED');
    // "signed like webhooks": the partner verifies the Standard Webhooks signature with its secret.
    const [order] = received[bought.id]!;
    const verified = new StandardWebhook(Buffer.from(secrets.PARTNER1, 'utf8'), { format: 'raw' }).verify(
      order!.body,
      order!.headers as Record<string, string>,
    ) as Json;
    expect(verified).toMatchObject({
      orderId: bought.id,
      member: { id: member.id },
      registeredAt: bought.registeredAt,
    });
    expect(order!.headers['webhook-id']).toBe(bought.id);
    expect(() =>
      new StandardWebhook(Buffer.from(secrets.PARTNER2, 'utf8'), { format: 'raw' }).verify(
        order!.body,
        order!.headers as Record<string, string>,
      ),
    ).toThrow();
    expect(await findPurchase(harness.context.orm.em.fork(), tenant.id, bought.id)).toMatchObject({
      partnerReference: `P-${bought.id}`,
    });
  });

  it('an admin token with admin:rewards buys for the member named in subject', async () => {
    const member = await memberWith(100);
    const reward = await partnerReward('PARTNER1_PRODUCT', 'accept');
    const response = await harness.request(tenant, 'POST', '/v1/purchases', {
      token: admin,
      body: { resource: { type: 'PARTNER1_PRODUCT', id: reward }, subject: { id: member.id } },
    });
    expect(response.status).toBe(201);
    expect(await dataOf(response)).toMatchObject({ user: { id: member.id }, resource: { id: reward } });
    expect(await balanceOf(member.id)).toBe(0);
  });

  it('PARTNER2: a partner that confirms within the wait answers delayed: false', async () => {
    const member = await memberWith(100);
    const reward = await partnerReward('PARTNER2_PRODUCT', 'accept');
    const bought = await dataOf<Json>(await buy(member.token, 'PARTNER2_PRODUCT', reward));
    // "partner-2 product: resource, benefit, registeredAt, orderId, delayed (boolean)"
    expect(bought).toMatchObject({ orderId: bought.id, status: 'CONFIRMED', delayed: false });
  });

  it('PARTNER2: a partner that answers late gives delayed: true, and the purchase is confirmed later', async () => {
    const member = await memberWith(100);
    const reward = await partnerReward('PARTNER2_PRODUCT', 'hold');
    const response = await buy(member.token, 'PARTNER2_PRODUCT', reward);
    expect(response.status).toBe(201);
    const bought = await dataOf<Json>(response);
    // "PARTNER2 answers `delayed: true` when the partner has not confirmed within a short wait, and confirms later."
    expect(bought).toMatchObject({ orderId: bought.id, registeredAt: expect.any(String), delayed: true });
    expect(bought.status).toBe('PENDING');
    expect(held.has(bought.id)).toBe(true);
    accept(held.get(bought.id)!, bought.id);
    await expect.poll(() => statusOf(bought.id), { timeout: 10_000 }).toBe('CONFIRMED');
    expect(await findPurchase(harness.context.orm.em.fork(), tenant.id, bought.id)).toMatchObject({ delayed: false });
    expect(await balanceOf(member.id)).toBe(0);
  });

  it('a partner that refuses for good refunds the points with one REVERSAL naming the purchase, even when the job runs twice', async () => {
    const member = await memberWith(130);
    const reward = await partnerReward('PARTNER1_PRODUCT', 'refuse', 5);
    const bought = await dataOf<Json>(await buy(member.token, 'PARTNER1_PRODUCT', reward));
    expect(await balanceOf(member.id)).toBe(30);
    // "A partner that refuses for good refunds the points with a REVERSAL entry naming the purchase."
    await expect.poll(() => statusOf(bought.id), { timeout: 10_000 }).toBe('REFUNDED');
    expect(received[bought.id]).toHaveLength(1);
    expect(await reversalsOf(bought.id)).toEqual([{ kind: 'REVERSAL', points: 100 }]);
    expect(await balanceOf(member.id)).toBe(130);
    expect(await queryOne(harness, 'select stock from reward where id = ?', [reward])).toEqual({ stock: 5 });

    // The same job again (a stalled job run twice), and the ledger's refund asked again: nothing more moves.
    const again = await placePartnerOrder(
      partnerOrderDependencies(harness.context),
      { tenantId: tenant.id, purchaseId: bought.id },
      true,
    );
    expect(again).toEqual({ status: 'REFUNDED' });
    await harness.context.orm.em
      .fork()
      .getKnex()
      .transaction((trx) =>
        refund(trx, {
          tenantId: tenant.id,
          cause: { purchaseId: bought.id },
          at: new Date(),
          policy: pointsPolicyOf({}),
        }),
      );
    expect(await reversalsOf(bought.id)).toHaveLength(1);
    expect(await balanceOf(member.id)).toBe(130);
    expect(await queryOne(harness, 'select stock from reward where id = ?', [reward])).toEqual({ stock: 5 });
    expect(
      await queryOne(
        harness,
        "select count(*)::int as entries from audit_outbox where job->>'action' = 'purchase.refunded' and job->>'resourceId' = ?",
        [bought.id],
      ),
    ).toEqual({ entries: 1 });
  });

  it('a partner that stays down through every retry refunds the purchase too', async () => {
    const member = await memberWith(100);
    const reward = await partnerReward('PARTNER1_PRODUCT', 'down');
    const bought = await dataOf<Json>(await buy(member.token, 'PARTNER1_PRODUCT', reward));
    await expect.poll(() => statusOf(bought.id), { timeout: 20_000 }).toBe('REFUNDED');
    expect(received[bought.id]).toHaveLength(10);
    expect(await reversalsOf(bought.id)).toEqual([{ kind: 'REVERSAL', points: 100 }]);
    expect(await balanceOf(member.id)).toBe(100);
  }, 30_000);

  it('an order a crash left unqueued is queued by the recovery sweep', async () => {
    const member = await memberWith(100);
    const reward = await partnerReward('PARTNER1_PRODUCT', 'accept');
    // The purchase committed, and its process died before queueing the order.
    const id = randomUUID();
    await purchase(
      { ...harness.context, codes: harness.context.voucherCodes },
      harness.context.orm.em.fork(),
      {
        id,
        tenantId: tenant.id,
        userId: member.id,
        actor: actorOf(undefined),
        resource: { type: 'PARTNER1_PRODUCT', id: reward },
        policy: pointsPolicyOf({}),
      },
      new Date(),
    );
    expect(await statusOf(id)).toBe('PENDING');
    // The reward changes its partner product before the order is placed: the order names what was bought.
    const { partner_product_id: bought } = await queryOne(
      harness,
      'select partner_product_id from reward where id = ?',
      [reward],
    );
    await queryOne(harness, "update reward set partner_product_id = 'accept:changed-since' where id = ? returning id", [
      reward,
    ]);
    const recovered = await recoverStranded(recoveryDependencies(harness.context), 0);
    expect(recovered.partnerOrders).toBeGreaterThanOrEqual(1);
    await expect.poll(() => statusOf(id), { timeout: 10_000 }).toBe('CONFIRMED');
    expect(received[id]).toHaveLength(1);
    expect(JSON.parse(received[id]![0]!.body)).toMatchObject({ productId: bought });
  });

  it('is refused while the tenant has no endpoint for its partner, and records nothing', async () => {
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:users']);
    await registerMember(harness, other, otherAdmin, 'lonely');
    const reward = await createReward(
      harness.context,
      harness.context.orm.em.fork(),
      { tenantId: other.id, actor: null },
      { type: 'PARTNER2_PRODUCT', name: 'x', price: 0, partnerProductId: 'sku-1' },
      new Date(),
    );
    const response = await harness.request(other, 'POST', '/v1/purchases', {
      token: await harness.userToken(other, 'lonely'),
      body: { resource: { type: 'PARTNER2_PRODUCT', id: reward.id } },
    });
    expect(response.status).toBe(422);
    expect((await jsonOf(response)).data).toMatchObject({ name: 'RewardUnavailableError' });
    expect(
      await queryOne(harness, 'select count(*)::int as purchases from purchase where tenant_id = ?', [other.id]),
    ).toEqual({ purchases: 0 });
  });

  it('a partner reward needs its partnerProductId', async () => {
    await expect(
      createReward(
        harness.context,
        harness.context.orm.em.fork(),
        { tenantId: tenant.id, actor: null },
        { type: 'PARTNER1_PRODUCT', name: 'x', price: 1 },
        new Date(),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      data: { errors: [expect.objectContaining({ property: 'partnerProductId' })] },
    });
  });
});

// docs/tenant.md#configuration: `partners`
describe('partner endpoints in the tenant configuration', () => {
  it('are validated field by field, and their secrets are never shown back nor audited', async () => {
    const short = await harness.request(tenant, 'PATCH', '/v1/tenant', {
      token: admin,
      body: { configuration: { partners: { PARTNER1: { url: `${baseUrl}/p1`, secret: 'too short' } } } },
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(await jsonOf(short))).toContain('configuration.partners.PARTNER1.secret');

    const unknown = await harness.request(tenant, 'PATCH', '/v1/tenant', {
      token: admin,
      body: { configuration: { partners: { PARTNER3: { url: `${baseUrl}/p3`, secret: secrets.PARTNER1 } } } },
    });
    expect(unknown.status).toBe(400);

    // Plain http only where private addresses are allowed (FETCH_ALLOW_PRIVATE_ADDRESSES, as in this harness).
    expect(() =>
      checkConfiguration(harness.context.payloadSchemas, {
        partners: { PARTNER2: { url: 'http://partner.example/orders', secret: secrets.PARTNER2 } },
      }),
    ).toThrow(
      expect.objectContaining({
        data: { errors: [expect.objectContaining({ property: 'configuration.partners.PARTNER2.url' })] },
      }),
    );

    const newSecret = randomBytes(24).toString('base64url');
    const changed = await harness.request(tenant, 'PATCH', '/v1/tenant', {
      token: admin,
      body: {
        configuration: {
          partners: {
            PARTNER1: { url: `${baseUrl}/partner-1/orders`, secret: newSecret },
            PARTNER2: { url: `${baseUrl}/partner-2/orders`, secret: secrets.PARTNER2 },
          },
        },
      },
    });
    expect(changed.status).toBe(200);
    secrets.PARTNER1 = newSecret;
    const shown = await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/tenant', { token: admin }));
    expect(shown.configuration.partners).toEqual({
      PARTNER1: { url: `${baseUrl}/partner-1/orders` },
      PARTNER2: { url: `${baseUrl}/partner-2/orders` },
    });
    const audited = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute(
        `select job::text as job from audit_outbox where tenant_id = ? union all
         select coalesce(before::text, '') || coalesce(after::text, '') from audit_entry where tenant_id = ?`,
        [tenant.id, tenant.id],
      );
    expect(audited.length).toBeGreaterThan(0);
    expect(audited.some((row: Json) => String(row.job).includes(newSecret))).toBe(false);
  });
});
