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
  type TestTenant,
} from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let secret: string;
let admin: string;
let workers: Worker[] = [];

const purchaseReactor = {
  name: 'Ten points per pound',
  eventType: 'PURCHASE_MADE',
  conditions: { all: [{ fact: 'payload', path: '$.total', operator: 'greaterThan', value: 0 }] },
  reactions: [
    {
      type: 'POINTS',
      points: {
        operation: 'MULTIPLY',
        arguments: [
          { type: 'PATH', value: '$.payload.total' },
          { type: 'NUMBER', value: '10' },
        ],
      },
    },
  ],
};

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, [
    'admin:event_types',
    'admin:users',
    'admin:reactors',
    'admin:events',
    'read:users',
  ]);
  const created = await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: {
      name: 'PURCHASE_MADE',
      description: 'x',
      isPrivate: true,
      schema: { type: 'object', required: ['total'], properties: { total: { type: 'number' } } },
    },
  });
  secret = (await dataOf<{ secret: string }>(created)).secret;
  await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'SHOP_VISITED', description: 'x', isPrivate: false },
  });
  for (const id of ['member-1', 'member-2']) await registerMember(harness, tenant, admin, id);
  expect((await harness.request(tenant, 'POST', '/v1/reactors', { token: admin, body: purchaseReactor })).status).toBe(
    201,
  );
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'Visit bonus',
      eventType: 'SHOP_VISITED',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '5' }] } }],
    },
  });
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const report = (body: unknown, token: string) => harness.request(tenant, 'POST', '/v1/events', { body, token });
const reactions = (id: number, wait = 5000) =>
  harness.request(tenant, 'GET', `/v1/events/${id}/reactions?wait=${wait}`);

describe('reporting and registering events', () => {
  it('answers 201 with the id and reportedAt at once, before any worker runs', async () => {
    const response = await report(
      { type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: 12.5 }, occurredAt: '2026-11-20T09:00:00Z' },
      secret,
    );
    expect(response.status).toBe(201);
    const event = await dataOf<Record<string, unknown>>(response);
    expect(event).toMatchObject({
      id: expect.any(Number),
      type: { name: 'PURCHASE_MADE', isPrivate: true },
      subject: { authIdentifier: 'member-1' },
      reportedAt: expect.any(String),
      occurredAt: '2026-11-20T09:00:00.000Z',
      payload: { total: 12.5 },
    });
    expect(event).not.toHaveProperty('registeredAt');
    // docs/events.md#waiting-for-reactions: 202 with {totalPoints: 0, reactions: [], pending: true} while it waits.
    const pending = await reactions(event.id as number, 100);
    expect(pending.status).toBe(202);
    expect(await dataOf(pending)).toEqual({ totalPoints: 0, reactions: [], pending: true });
  });

  it('the worker registers it, grants its points in the ledger, and sets reactedAt', async () => {
    workers = startWorkers(harness.context, ['events']);
    const response = await report({ type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: 3.99 } }, secret);
    const { id } = await dataOf<{ id: number }>(response);
    const result = await reactions(id);
    expect(result.status).toBe(200);
    // 3.99 × 10 = 39.9, rounded down once (docs/events.md#points-arithmetic).
    expect(await dataOf(result)).toEqual({
      totalPoints: 39,
      reactions: [
        {
          type: 'POINTS',
          points: purchaseReactor.reactions[0]!.points,
          reactorName: 'Ten points per pound',
          amount: 39,
        },
      ],
    });
    const stored = await queryOne(harness, 'select registered_at, reacted_at from event where id = ?', [id]);
    expect(stored.registered_at).not.toBeNull();
    const ledger = await queryOne(
      harness,
      'select kind, points::int, reactor_id is not null as has_reactor from ledger_entry where event_id = ?',
      [id],
    );
    expect(ledger).toEqual({ kind: 'EARN', points: 39, has_reactor: true });
  });

  it('public types take the subject from the user token', async () => {
    const token = await harness.userToken(tenant, 'member-2');
    const response = await report({ type: 'SHOP_VISITED' }, token);
    expect(response.status).toBe(201);
    const event = await dataOf<{ id: number; subject: { authIdentifier: string } }>(response);
    expect(event.subject.authIdentifier).toBe('member-2');
    expect((await dataOf<{ totalPoints: number }>(await reactions(event.id))).totalPoints).toBe(5);
  });

  it("the tenant's service subject reports business proceedings with no customer and earns nothing", async () => {
    const response = await report(
      { type: 'PURCHASE_MADE', subject: harness.config.publicBaseUrl, payload: { total: 100 } },
      secret,
    );
    expect(response.status).toBe(201);
    const event = await dataOf<{ id: number; subject: unknown }>(response);
    expect(event.subject).toEqual({ id: harness.config.publicBaseUrl });
    expect(await dataOf(await reactions(event.id))).toEqual({ totalPoints: 0, reactions: [] });
  });

  it('an event whose conditions do not hold is registered with no reactions, and reactedAt is set all the same', async () => {
    const { id } = await dataOf<{ id: number }>(
      await report({ type: 'PURCHASE_MADE', subject: 'member-2', payload: { total: 0 } }, secret),
    );
    expect(await dataOf(await reactions(id))).toEqual({ totalPoints: 0, reactions: [] });
    await expect
      .poll(async () => (await queryOne(harness, 'select reacted_at from event where id = ?', [id])).reacted_at)
      .not.toBeNull();
    // No webhook takes it: nothing is left to do once it is registered, in the same transaction.
    expect(
      await queryOne(harness, 'select reacted_at = registered_at as together from event where id = ?', [id]),
    ).toEqual({ together: true });
  });

  it('a wallet holds more points than a 32-bit integer does, and every event is registered', async () => {
    const jackpotSecret = (
      await dataOf<{ secret: string }>(
        await harness.request(tenant, 'POST', '/v1/event_types', {
          token: admin,
          body: { name: 'JACKPOT_WON', description: 'x', isPrivate: true },
        }),
      )
    ).secret;
    const billion = {
      type: 'POINTS',
      points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '1000000000' }] },
    };
    await harness.request(tenant, 'POST', '/v1/reactors', {
      token: admin,
      body: { name: 'jackpot', eventType: 'JACKPOT_WON', reactions: [billion, billion] },
    });
    await registerMember(harness, tenant, admin, 'member-3');
    const ids = [];
    for (const draw of [1, 2])
      ids.push(
        (
          await dataOf<{ id: number }>(
            await report({ type: 'JACKPOT_WON', subject: 'member-3', payload: { draw } }, jackpotSecret),
          )
        ).id,
      );
    for (const id of ids)
      expect((await dataOf<{ totalPoints: number }>(await reactions(id))).totalPoints).toBe(2_000_000_000);
    const wallet = await dataOf(await harness.request(tenant, 'GET', '/v1/users/member-3/wallet', { token: admin }));
    expect(wallet).toMatchObject({ points: 4_000_000_000, lifetimeEarn: 4_000_000_000 });
  });

  it('the wallet shows points and lifetimeEarn from the ledger', async () => {
    const wallet = await dataOf<{ points: number; lifetimeEarn: number }>(
      await harness.request(tenant, 'GET', '/v1/users/member-1/wallet', { token: admin }),
    );
    const sum = await queryOne(
      harness,
      "select coalesce(sum(points), 0)::int as total from ledger_entry l join member m on m.id = l.user_id where m.auth_identifier = 'member-1'",
    );
    expect(wallet.points).toBe(sum.total);
    expect(wallet.lifetimeEarn).toBe(sum.total);
    expect(wallet.points).toBeGreaterThanOrEqual(39);
    const mine = await dataOf<{ points: number }>(
      await harness.request(tenant, 'GET', '/v1/users/me/wallet', {
        token: await harness.userToken(tenant, 'member-2'),
      }),
    );
    expect(mine.points).toBe(5);
  });
});

describe('reading events', () => {
  it('GET /v1/events lists registered events with filters, sort, pointsOnlyEvents and Content-Range', async () => {
    const filter = encodeURIComponent("subject.authIdentifier:(eq:'member-1'),type.name:(eq:'PURCHASE_MADE')");
    const response = await harness.request(tenant, 'GET', `/v1/events?filter=${filter}&sort=id&order=DESC`, {
      token: admin,
    });
    expect(response.status).toBe(200);
    const events = await dataOf<{ id: number; registeredAt: string; subject: { authIdentifier: string } }[]>(response);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.every((event) => event.subject.authIdentifier === 'member-1' && event.registeredAt)).toBe(true);
    expect(events.map((event) => event.id)).toEqual([...events.map((event) => event.id)].sort((a, b) => b - a));
    expect(response.headers.get('content-range')).toMatch(/^event 0-\d+\/\d+$/);

    // docs/events.md#reading-events: "pointsOnlyEvents … only events that had a points-adjustment reaction"
    const pointsOnly = await dataOf<{ id: number }[]>(
      await harness.request(tenant, 'GET', '/v1/events?pointsOnlyEvents=true&limit=100', { token: admin }),
    );
    const withPoints = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(
        'select id from event where tenant_id = ? and total_points > 0 order by reported_at desc',
        [tenant.id],
      );
    expect(pointsOnly.map((event) => event.id)).toEqual(withPoints.map((row) => Number(row.id)));
    expect((await harness.request(tenant, 'GET', '/v1/events?pointsOnlyEvents=maybe', { token: admin })).status).toBe(
      400,
    );
  });

  it('GET /v1/events filters on reportedAt and occurredAt and sorts by occurredAt', async () => {
    const all = await dataOf<{ id: number; reportedAt: string; occurredAt?: string }[]>(
      await harness.request(tenant, 'GET', '/v1/events?limit=100&sort=reportedAt&order=ASC', { token: admin }),
    );
    const middle = all[Math.floor(all.length / 2)]!.reportedAt;
    const later = await dataOf<{ reportedAt: string }[]>(
      await harness.request(
        tenant,
        'GET',
        `/v1/events?limit=100&filter=${encodeURIComponent(`reportedAt:(gt:'${middle}')`)}`,
        { token: admin },
      ),
    );
    expect(later.length).toBe(all.filter((event) => event.reportedAt > middle).length);
    const occurred = await dataOf<{ occurredAt?: string }[]>(
      await harness.request(
        tenant,
        'GET',
        `/v1/events?filter=${encodeURIComponent("occurredAt:(eq:'2026-11-20T09:00:00Z')")}`,
        { token: admin },
      ),
    );
    expect(occurred.map((event) => event.occurredAt)).toEqual(
      all.filter((event) => event.occurredAt).map((event) => event.occurredAt),
    );
    expect(
      (await harness.request(tenant, 'GET', '/v1/events?sort=occurredAt&order=DESC', { token: admin })).status,
    ).toBe(200);
    expect((await harness.request(tenant, 'GET', '/v1/events?sort=payload', { token: admin })).status).toBe(400);
  });

  // docs/events.md#waiting-for-reactions: "?wait=MS (default 5000, maximum 30000)"
  it('GET /v1/events/{id}/reactions refuses a wait over 30000 ms or not a number', async () => {
    expect((await harness.request(tenant, 'GET', '/v1/events/1/reactions?wait=30001')).status).toBe(400);
    expect((await harness.request(tenant, 'GET', '/v1/events/1/reactions?wait=soon')).status).toBe(400);
  });

  it("GET /v1/events/{id} reads one; another tenant's or an unknown id is 404", async () => {
    const [first] = await dataOf<{ id: number }[]>(
      await harness.request(tenant, 'GET', '/v1/events?limit=1', { token: admin }),
    );
    const response = await harness.request(tenant, 'GET', `/v1/events/${first!.id}`, { token: admin });
    expect((await dataOf<{ id: number }>(response)).id).toBe(first!.id);
    const other = await harness.createTenant();
    expect(
      (
        await harness.request(other, 'GET', `/v1/events/${first!.id}`, {
          token: await harness.adminToken(other, ['admin:events']),
        })
      ).status,
    ).toBe(404);
    expect((await harness.request(other, 'GET', `/v1/events/${first!.id}/reactions?wait=0`)).status).toBe(404);
    expect((await harness.request(tenant, 'GET', '/v1/events/999999999/reactions?wait=0')).status).toBe(404);
    // docs/api-conventions.md#errors: "Unknown id: 404 NotFoundError", also for ids no event id can be.
    for (const id of ['9223372036854775808', '1'.repeat(30)]) {
      expect((await harness.request(tenant, 'GET', `/v1/events/${id}`, { token: admin })).status).toBe(404);
      expect((await harness.request(tenant, 'GET', `/v1/events/${id}/reactions?wait=0`)).status).toBe(404);
    }
  });

  // docs/events.md#testing-reactions: "POST /events/test_reaction: shows which reactions would be triggered by the event without reporting it."
  it('POST /v1/events/test_reaction computes and stores nothing', async () => {
    const stored =
      'select (select count(*) from event) + (select count(*) from ledger_entry) + (select coalesce(sum(points), 0) from wallet) as n';
    const before = await queryOne(harness, stored);
    const response = await harness.request(tenant, 'POST', '/v1/events/test_reaction', {
      token: admin,
      body: { type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: 2 } },
    });
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toMatchObject({
      status: 'success',
      data: {
        totalPoints: 20,
        reactions: [{ type: 'POINTS', reactorName: 'Ten points per pound' }],
        activatedReactors: [{ name: 'Ten points per pound', id: expect.any(String) }],
      },
    });
    expect((await queryOne(harness, stored)).n).toBe(before.n);
  });

  it('POST /v1/events/test_reaction refuses what POST /events refuses, and the service subject earns nothing', async () => {
    const test = (body: unknown) => harness.request(tenant, 'POST', '/v1/events/test_reaction', { token: admin, body });
    expect((await test({ type: 'NO_SUCH_TYPE', subject: 'member-1' })).status).toBe(404);
    expect((await test({ type: 'PURCHASE_MADE', subject: 'team.42', payload: { total: 2 } })).status).toBe(400);
    expect((await test({ type: 'PURCHASE_MADE', subject: 'nobody', payload: { total: 2 } })).status).toBe(404);
    const service = await test({ type: 'PURCHASE_MADE', subject: harness.config.publicBaseUrl, payload: { total: 2 } });
    expect(await dataOf(service)).toEqual({ totalPoints: 0, reactions: [], activatedReactors: [] });
    await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name: 'RETIRED_TYPE', description: 'x', isPrivate: true, isActive: false },
    });
    expect((await test({ type: 'RETIRED_TYPE', subject: 'member-1' })).status).toBe(404);
  });
});
