import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'bullmq';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundPoster } from '../../shared/platform/http/outbound-post.js';
import { registerEvents, registrationDependencies } from '../../shared/reactors/register-events.js';
import { deliverWebhook, deliveryDependencies } from '../../shared/webhooks/deliver-webhook.js';
import { createMetrics } from '../../shared/platform/metrics/metrics.js';
import { metricValue } from '../support/metric-samples.js';
import { dispatchWebhooks } from '../../shared/webhooks/dispatch-webhooks.js';
import { WebhookDelivery } from '../../shared/webhooks/webhook-delivery.entity.js';
import { WebhookSubscriptions } from '../../shared/webhooks/webhook-subscriptions.js';
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
import { ManualClock } from '../support/manual-clock.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let secret: string;
let workers: Worker[];
let server: Server;
let baseUrl: string;
const received: Record<string, Received[]> = {};
/** How many more requests each path refuses with 500 before it takes one. */
const failuresLeft: Record<string, number> = {
  '/flaky': 2,
  '/down': Number.POSITIVE_INFINITY,
  '/twice': Number.POSITIVE_INFINITY,
};
/** How long each path takes to answer. */
const answerDelayMs: Record<string, number> = { '/twice': 300 };
/** What each path answers when it fails: for /twice, text PostgreSQL cannot store once cut at 500 characters (a NUL, half an emoji). */
const failureBody: Record<string, string> = { '/twice': `\0${'x'.repeat(498)}😀` };

beforeAll(async () => {
  // Retries doubling from 10 ms (about 10 s for all ten): the 24-hour schedule, scaled down for the test.
  harness = await createHarness({ fetchAllowPrivateAddresses: true, webhookRetryBaseMs: 10 });
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:tenant']);
  secret = (
    await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types', {
        token: admin,
        body: { name: 'SALE_MADE', description: 'x', isPrivate: true },
      }),
    )
  ).secret;
  await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'OTHER_THING', description: 'x', isPrivate: true },
  });
  await registerMember(harness, tenant, admin, 'member-1');
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = request.url ?? '/';
      (received[path] ??= []).push({ headers: request.headers, body });
      const left = failuresLeft[path] ?? 0;
      failuresLeft[path] = left - 1;
      setTimeout(
        () => response.writeHead(left > 0 ? 500 : 204).end(left > 0 ? (failureBody[path] ?? 'try later') : undefined),
        answerDelayMs[path] ?? 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workers = startWorkers(harness.context, ['events', 'webhooks']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await harness.close();
});

async function subscribe(path: string, eventTypes?: string[]): Promise<{ id: string; secret: string }> {
  const response = await harness.request(tenant, 'POST', '/v1/webhooks', {
    token: admin,
    body: { url: `${baseUrl}${path}`, ...(eventTypes ? { eventTypes } : {}) },
  });
  expect(response.status).toBe(201);
  return dataOf(response);
}

async function reportSale(n: number): Promise<number> {
  const response = await harness.request(tenant, 'POST', '/v1/events', {
    token: secret,
    body: { type: 'SALE_MADE', subject: 'member-1', payload: { sale: n } },
  });
  return (await dataOf<{ id: number }>(response)).id;
}

async function deliveries(webhookId: string): Promise<Json[]> {
  return dataOf(await harness.request(tenant, 'GET', `/v1/webhooks/${webhookId}/deliveries`, { token: admin }));
}

// docs/events.md#webhooks: "deliveries are signed (HMAC-SHA256, headers webhook-id, webhook-timestamp, webhook-signature), retried with backoff for 24 h, and recorded."
describe('webhook deliveries', () => {
  it('delivers a signed Standard Webhooks body that the receiver can verify', async () => {
    const webhook = await subscribe('/ok', ['SALE_MADE']);
    expect(webhook.secret).toMatch(/^whsec_/);
    const eventId = await reportSale(1);
    await expect.poll(() => received['/ok']?.length ?? 0, { timeout: 10_000 }).toBe(1);
    const [delivery] = received['/ok']!;
    const verified = new StandardWebhook(webhook.secret).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as Json;
    // docs/events.md#webhooks: "Webhook bodies follow Standard Webhooks: {type: "<event type name>", timestamp, data: <Event>}."
    expect(verified).toMatchObject({
      type: 'SALE_MADE',
      timestamp: expect.any(String),
      data: { id: eventId, type: { name: 'SALE_MADE' }, subject: { authIdentifier: 'member-1' }, payload: { sale: 1 } },
    });
    expect(() =>
      new StandardWebhook(`whsec_${Buffer.from('another secret 32 bytes long....').toString('base64')}`).verify(
        delivery!.body,
        delivery!.headers as Record<string, string>,
      ),
    ).toThrow();
    await expect.poll(async () => (await deliveries(webhook.id))[0]?.status, { timeout: 5000 }).toBe('SUCCEEDED');
    // docs/events.md#registration-and-reactions: reactedAt is set once the asynchronous reactions (the delivery, stored and queued) are done.
    expect(
      await queryOne(harness, 'select reacted_at > registered_at as reacted_after from event where id = ?', [eventId]),
    ).toEqual({ reacted_after: true });
  });

  it('a receiver that fails twice then succeeds gets the same delivery three times, each attempt recorded', async () => {
    const webhook = await subscribe('/flaky');
    await reportSale(2);
    await expect.poll(async () => (await deliveries(webhook.id))[0]?.status, { timeout: 15_000 }).toBe('SUCCEEDED');
    const [delivery] = await deliveries(webhook.id);
    expect(delivery.attempts.map((attempt: { status: number }) => attempt.status)).toEqual([500, 500, 204]);
    expect(delivery.attempts[0].error).toBe('try later');
    const ids = new Set(received['/flaky']!.map((request) => request.headers['webhook-id']));
    expect(ids).toEqual(new Set([delivery.id]));
  });

  /** A PENDING delivery of a SALE_MADE made by hand, and what deliverWebhook runs it with. */
  async function pendingDelivery(tenantId: string, webhookId: string, eventId: number) {
    const em = harness.context.orm.em.fork();
    const delivery = em.create(WebhookDelivery, {
      id: randomUUID(),
      tenant: tenantId,
      webhook: webhookId,
      eventId,
      eventType: 'SALE_MADE',
      status: 'PENDING',
      attempts: [],
    });
    await em.flush();
    // Metrics of its own: the deliveries' counter shows this delivery's attempts alone.
    const metrics = createMetrics();
    const dependencies = deliveryDependencies({ ...harness.context, metrics });
    return { delivery, dependencies, metrics };
  }

  // Both runs read the delivery before either records its attempt: the receiver takes 300 ms to answer.
  it('two runs of one delivery at once (a stalled job run again) each record their attempt, whatever the receiver answered', async () => {
    const webhook = await subscribe('/twice', ['OTHER_THING']);
    const eventId = await reportSale(5);
    // The event is registered and its webhooks dispatched (reacted_at set after) before the delivery is made by hand:
    // a dispatch after it would queue the still-pending delivery for the webhook worker, a third run.
    await expect
      .poll(
        async () =>
          (
            await harness.context.orm.em
              .fork()
              .getConnection()
              .execute('select reacted_at is not null as reacted from event where id = ?', [eventId])
          )[0]?.reacted,
        { timeout: 10_000 },
      )
      .toBe(true);
    const { delivery, dependencies, metrics } = await pendingDelivery(tenant.id, webhook.id, eventId);
    const runs = await Promise.allSettled([
      deliverWebhook(dependencies, delivery.id, false),
      deliverWebhook(dependencies, delivery.id, false),
    ]);
    expect(runs.map((run) => run.status)).toEqual(['rejected', 'rejected']);
    const [recorded] = await deliveries(webhook.id);
    expect(recorded).toMatchObject({ status: 'PENDING' });
    expect(recorded.attempts.map((attempt: { status: number }) => attempt.status)).toEqual([500, 500]);
    // docs/operations.md#metrics: each attempt recorded is counted once, by outcome.
    expect(await metricValue(metrics, 'tally_webhook_deliveries_total', { outcome: 'retrying' })).toBe(2);
    // The receiver's answer is kept as far as it can be stored: the NUL dropped, the emoji cut in half replaced.
    expect(recorded.attempts[0].error).toBe(`${'x'.repeat(498)}\ufffd`);
  });

  // The style guide, point 5: "The tenant is in every query". The job names the delivery alone; the
  // event it delivers is read within the delivery's tenant, so another tenant's webhook never gets it.
  it("a delivery of another tenant that names our event's id posts nothing", async () => {
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:tenant']);
    const theirs = await dataOf<{ id: string }>(
      await harness.request(other, 'POST', '/v1/webhooks', {
        token: otherAdmin,
        body: { url: `${baseUrl}/elsewhere` },
      }),
    );
    const eventId = await reportSale(6);
    await expect
      .poll(async () => (await queryOne(harness, 'select count(*)::int as n from event where id = ?', [eventId])).n, {
        timeout: 10_000,
      })
      .toBe(1);
    const { delivery, dependencies } = await pendingDelivery(other.id, theirs.id, eventId);
    await deliverWebhook(dependencies, delivery.id, false);
    expect(received['/elsewhere']).toBeUndefined();
    expect(
      await queryOne(harness, 'select status, attempts from webhook_delivery where id = ?', [delivery.id]),
    ).toEqual({ status: 'PENDING', attempts: [] });
  });

  it('only subscribed event types are delivered; a receiver that never answers well ends FAILED', async () => {
    const onlyOther = await subscribe('/other', ['OTHER_THING']);
    const down = await subscribe('/down', ['SALE_MADE']);
    await reportSale(3);
    await expect.poll(async () => (await deliveries(down.id))[0]?.status, { timeout: 30_000 }).toBe('FAILED');
    expect((await deliveries(down.id))[0].attempts).toHaveLength(11);
    expect(await deliveries(onlyOther.id)).toEqual([]);
  }, 40_000);
});

// docs/events.md#reactions: "Reaction `WEBHOOK`: asynchronous, see docs/events.md#webhooks."
describe('WEBHOOK reactions', () => {
  it('deliver the events whose reactor conditions hold to the webhook they name, once each, whatever types it lists', async () => {
    const visitSecret = (
      await dataOf<{ secret: string }>(
        await harness.request(tenant, 'POST', '/v1/event_types', {
          token: admin,
          body: { name: 'VISIT_MADE', description: 'x', isPrivate: true },
        }),
      )
    ).secret;
    const reactionOnly = await subscribe('/reacted', ['OTHER_THING']);
    const alsoSubscribed = await subscribe('/reacted-and-subscribed', ['VISIT_MADE']);
    const reactorAdmin = await harness.adminToken(tenant, ['admin:reactors', 'admin:events']);
    const reactor = await harness.request(tenant, 'POST', '/v1/reactors', {
      token: reactorAdmin,
      body: {
        name: 'big visits',
        eventType: 'VISIT_MADE',
        conditions: { all: [{ fact: 'payload', path: '$.total', operator: 'greaterThanInclusive', value: 100 }] },
        reactions: [
          { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '5' }] } },
          { type: 'WEBHOOK', webhookId: reactionOnly.id },
          { type: 'WEBHOOK', webhookId: alsoSubscribed.id },
        ],
      },
    });
    expect(reactor.status).toBe(201);
    const visit = async (total: number) => {
      const response = await harness.request(tenant, 'POST', '/v1/events', {
        token: visitSecret,
        body: { type: 'VISIT_MADE', subject: 'member-1', payload: { total } },
      });
      return (await dataOf<{ id: number }>(response)).id;
    };
    const big = await visit(150);
    const small = await visit(10);

    await expect.poll(() => received['/reacted']?.length ?? 0, { timeout: 10_000 }).toBe(1);
    const delivered = received['/reacted']![0]!;
    expect(
      new StandardWebhook(reactionOnly.secret).verify(delivered.body, delivered.headers as Record<string, string>),
    ).toMatchObject({ type: 'VISIT_MADE', data: { id: big } });
    // The subscribed webhook gets both events, the one its reaction also names once.
    await expect.poll(() => received['/reacted-and-subscribed']?.length ?? 0, { timeout: 10_000 }).toBe(2);
    expect(
      received['/reacted-and-subscribed']!.map((request) => (JSON.parse(request.body) as Json).data.id).sort(),
    ).toEqual([big, small].sort());

    const reactions = await jsonOf(
      await harness.request(tenant, 'GET', `/v1/events/${big}/reactions`, { token: reactorAdmin }),
    );
    expect(reactions.data).toEqual({
      totalPoints: 5,
      reactions: [
        {
          type: 'POINTS',
          points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '5' }] },
          reactorName: 'big visits',
          amount: 5,
        },
        { type: 'WEBHOOK', webhookId: reactionOnly.id, reactorName: 'big visits' },
        { type: 'WEBHOOK', webhookId: alsoSubscribed.id, reactorName: 'big visits' },
      ],
    });
    const tested = await jsonOf(
      await harness.request(tenant, 'POST', '/v1/events/test_reaction', {
        token: reactorAdmin,
        body: { type: 'VISIT_MADE', subject: 'member-1', payload: { total: 150 } },
      }),
    );
    expect(tested.data).toMatchObject({ totalPoints: 5, reactions: reactions.data.reactions });
    expect(await deliveries(reactionOnly.id)).toHaveLength(1);
    // Deleting a webhook a reactor delivers to would silence the reactor: refused.
    const deleting = await harness.request(tenant, 'DELETE', `/v1/webhooks/${reactionOnly.id}`, { token: admin });
    expect(deleting.status).toBe(409);
    expect(await jsonOf(deleting)).toMatchObject({
      status: 'fail',
      message: 'Reactors deliver to this webhook: big visits',
      data: { name: 'ConflictError' },
    });
    // Once every delivery of both events is settled, none is left that could reach /reacted again.
    await expect
      .poll(
        async () =>
          [...(await deliveries(reactionOnly.id)), ...(await deliveries(alsoSubscribed.id))].map(
            (delivery) => delivery.status,
          ),
        { timeout: 10_000 },
      )
      .toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
    expect(received['/reacted']).toHaveLength(1);

    // A run again after a crash between registration and the reactions finds the webhooks in the stored reactions.
    const row = await queryOne(harness, 'select type_id, user_id, reported_at from event where id = ?', [big]);
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute('update event set reacted_at = null where id = ?', [big]);
    const job = {
      id: big,
      tenantId: tenant.id,
      eventTypeId: row.type_id,
      eventTypeName: 'VISIT_MADE',
      userId: row.user_id,
      payload: { total: 150 },
      reportedAt: new Date(row.reported_at).toISOString(),
      occurredAt: null,
    };
    expect(await registerEvents(registrationDependencies(harness.context), [job])).toEqual([
      { webhookIds: [reactionOnly.id, alsoSubscribed.id] },
    ]);
  });

  it('must name a webhook of the tenant: 400 otherwise', async () => {
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:tenant']);
    const foreign = await dataOf<{ id: string }>(
      await harness.request(other, 'POST', '/v1/webhooks', { token: otherAdmin, body: { url: `${baseUrl}/foreign` } }),
    );
    const reactorAdmin = await harness.adminToken(tenant, ['admin:reactors']);
    for (const webhookId of [foreign.id, '00000000-0000-4000-8000-000000000000']) {
      const response = await harness.request(tenant, 'POST', '/v1/reactors', {
        token: reactorAdmin,
        body: { name: 'bad', eventType: 'SALE_MADE', reactions: [{ type: 'WEBHOOK', webhookId }] },
      });
      expect(response.status).toBe(400);
      expect(await jsonOf(response)).toMatchObject({
        status: 'fail',
        message: `reactions: no webhook with id ${webhookId}`,
        data: { name: 'ValidationError', errors: [{ property: 'reactions', value: [webhookId] }] },
      });
    }
    const points = { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '1' }] } };
    const created = await dataOf<{ id: string }>(
      await harness.request(tenant, 'POST', '/v1/reactors', {
        token: reactorAdmin,
        body: { name: 'good', eventType: 'SALE_MADE', reactions: [points] },
      }),
    );
    const patched = await harness.request(tenant, 'PATCH', `/v1/reactors/${created.id}`, {
      token: reactorAdmin,
      body: { reactions: [points, { type: 'WEBHOOK', webhookId: foreign.id }] },
    });
    expect(patched.status).toBe(400);
  });

  // docs/events.md#subjects: the tenant's service subject is "for business proceedings with no customer".
  it("run for the tenant's service subject too, whose events earn no points", async () => {
    const closingSecret = (
      await dataOf<{ secret: string }>(
        await harness.request(tenant, 'POST', '/v1/event_types', {
          token: admin,
          body: { name: 'TILL_CLOSED', description: 'x', isPrivate: true },
        }),
      )
    ).secret;
    const backOffice = await subscribe('/back-office', ['OTHER_THING']);
    const reactorAdmin = await harness.adminToken(tenant, ['admin:reactors', 'admin:events']);
    const points = { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '5' }] } };
    for (const body of [
      {
        name: 'till report',
        eventType: 'TILL_CLOSED',
        reactions: [points, { type: 'WEBHOOK', webhookId: backOffice.id }],
      },
      { name: 'points only', eventType: 'TILL_CLOSED', reactions: [points] },
    ]) {
      expect((await harness.request(tenant, 'POST', '/v1/reactors', { token: reactorAdmin, body })).status).toBe(201);
    }
    const report = { type: 'TILL_CLOSED', subject: harness.config.publicBaseUrl, payload: { till: 7 } };
    const { id } = await dataOf<{ id: number }>(
      await harness.request(tenant, 'POST', '/v1/events', { token: closingSecret, body: report }),
    );

    await expect.poll(() => received['/back-office']?.length ?? 0, { timeout: 10_000 }).toBe(1);
    const delivered = received['/back-office']![0]!;
    expect(
      new StandardWebhook(backOffice.secret).verify(delivered.body, delivered.headers as Record<string, string>),
    ).toMatchObject({
      type: 'TILL_CLOSED',
      data: { id, subject: { id: harness.config.publicBaseUrl } },
    });
    const webhookOnly = {
      totalPoints: 0,
      reactions: [{ type: 'WEBHOOK', webhookId: backOffice.id, reactorName: 'till report' }],
    };
    expect(
      (await jsonOf(await harness.request(tenant, 'GET', `/v1/events/${id}/reactions`, { token: reactorAdmin }))).data,
    ).toEqual(webhookOnly);
    const tested = await jsonOf(
      await harness.request(tenant, 'POST', '/v1/events/test_reaction', { token: reactorAdmin, body: report }),
    );
    expect(tested.data).toEqual({
      ...webhookOnly,
      activatedReactors: [{ name: 'till report', id: expect.any(String) }],
    });
    expect(await queryOne(harness, 'select count(*)::int as n from ledger_entry where event_id = ?', [id])).toEqual({
      n: 0,
    });
  });
});

// README, CACHE_TTL_MS: another process's event worker may hold a tenant's subscriptions a little longer.
describe('webhook subscriptions cached by another process', () => {
  it('a webhook deleted or deactivated meanwhile gets no delivery, and the dispatch still succeeds', async () => {
    const deleted = await subscribe('/deleted-elsewhere', ['SALE_MADE']);
    const deactivated = await subscribe('/deactivated-elsewhere', ['SALE_MADE']);
    const stale = new WebhookSubscriptions(harness.context.orm, 60_000);
    expect((await stale.forTenant(tenant.id)).map((webhook) => webhook.id)).toEqual(
      expect.arrayContaining([deleted.id, deactivated.id]),
    );
    await harness.request(tenant, 'DELETE', `/v1/webhooks/${deleted.id}`, { token: admin });
    await harness.request(tenant, 'PATCH', `/v1/webhooks/${deactivated.id}`, {
      token: admin,
      body: { isActive: false },
    });
    const eventId = await reportSale(4);
    const reader = await harness.adminToken(tenant, ['admin:events']);
    await expect
      .poll(async () => (await harness.request(tenant, 'GET', `/v1/events/${eventId}`, { token: reader })).status, {
        timeout: 10_000,
      })
      .toBe(200);
    const dispatch = {
      orm: harness.context.orm,
      subscriptions: stale,
      queues: harness.context.queues,
      retryBaseMs: 10,
    };
    await dispatchWebhooks(dispatch, [
      { id: eventId, tenantId: tenant.id, eventTypeName: 'SALE_MADE', webhookIds: [] },
    ]);
    expect(await deliveries(deactivated.id)).toEqual([]);
    expect(await harness.context.orm.em.fork().count(WebhookDelivery, { webhook: deleted.id })).toBe(0);
  });
});

describe('/v1/webhooks', () => {
  it('manages subscriptions; the secret is never shown again, nor stored in the clear', async () => {
    const { id, secret: signingSecret } = await subscribe('/managed');
    const read = await harness.request(tenant, 'GET', `/v1/webhooks/${id}`, { token: admin });
    expect(await dataOf(read)).not.toHaveProperty('secret');
    const [stored] = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute<{ secret: string }[]>('select secret from webhook where id = ?', [id]);
    expect(stored!.secret).not.toContain(signingSecret.slice('whsec_'.length, 20));
    const changed = await dataOf(
      await harness.request(tenant, 'PATCH', `/v1/webhooks/${id}`, { token: admin, body: { isActive: false } }),
    );
    expect(changed).toMatchObject({ isActive: false });
    expect((await harness.request(tenant, 'DELETE', `/v1/webhooks/${id}`, { token: admin })).status).toBe(200);
    expect((await harness.request(tenant, 'GET', `/v1/webhooks/${id}`, { token: admin })).status).toBe(404);
  });

  // docs/api-conventions.md#errors: "Body validation failures, on every route: 400 ValidationError with data.errors items".
  it('refuses unknown event types and addresses that are not https, and another tenant sees nothing', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/webhooks', {
      token: admin,
      body: { url: `${baseUrl}/x`, eventTypes: ['NO_SUCH_TYPE'] },
    });
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data).toMatchObject({
      name: 'ValidationError',
      errors: [{ property: 'eventTypes', value: ['NO_SUCH_TYPE'] }],
    });
    const ftp = await harness.request(tenant, 'POST', '/v1/webhooks', {
      token: admin,
      body: { url: 'ftp://example.com/x' },
    });
    expect(ftp.status).toBe(400);
    expect((await jsonOf(ftp)).data).toMatchObject({
      name: 'ValidationError',
      errors: [{ property: 'url', value: 'ftp://example.com/x' }],
    });
    const other = await harness.createTenant();
    expect(
      await dataOf(
        await harness.request(other, 'GET', '/v1/webhooks', {
          token: await harness.adminToken(other, ['admin:tenant']),
        }),
      ),
    ).toEqual([]);
  });
});

describe('outbound requests to tenant-given addresses', () => {
  it('refuse loopback and private addresses unless private fetching is allowed', async () => {
    const closed = new OutboundPoster(false, 2000);
    for (const url of [
      `${baseUrl}/ok`,
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
    ]) {
      await expect(closed.post(url, '{}', {})).rejects.toThrow();
    }
    const open = new OutboundPoster(true, 2000);
    expect((await open.post(`${baseUrl}/ok`, '{}', {})).status).toBe(204);
  });

  it('bound the whole exchange: a receiver that trickles bytes is cut off, an endless answer is read only as far as recorded', async () => {
    let dripped = 0;
    const receiver = createServer((request, response) => {
      response.writeHead(200);
      const drip = setInterval(
        () => {
          dripped += 1;
          response.write(request.url === '/flood' ? 'x'.repeat(64 * 1024) : '.');
        },
        request.url === '/flood' ? 1 : 200,
      );
      response.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      // The exchange's time is the test's clock: the bound is seen to be what cuts it, however slow the machine.
      const clock = new ManualClock();
      const poster = new OutboundPoster(true, 1000, clock);
      let settled = false;
      const trickle = poster.post(`${origin}/trickle`, '{}', {}).finally(() => (settled = true));
      trickle.catch(() => {});
      // Bytes keep coming, so no idle gap ends it: only the bound on the whole exchange can.
      await expect.poll(() => dripped, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      expect(clock.pending().map((timer) => timer.ms)).toEqual([1000]);
      expect(settled).toBe(false);
      clock.advance(1000);
      await expect(trickle).rejects.toThrow('no complete answer within 1000 ms');
      const flood = await poster.post(`${origin}/flood`, '{}', {});
      expect(flood.status).toBe(200);
      expect(flood.body.length).toBe(2048);
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
