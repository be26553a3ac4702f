import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventJob } from '../../shared/events/event-job.js';
import { registerEvents, registrationDependencies } from '../../shared/reactors/register-events.js';
import { systemClock } from '../../shared/platform/async/clock.js';
import type { RewardInput } from '../../shared/rewards/reward-service.js';
import { rewardFor } from '../support/rewards-setup.js';
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
let other: TestTenant;
let admin: string;
let member: { id: string };

const TEN_POINTS = { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } };
/** When the vouchers of the tests' registrations are obtained: the registration's clock, not the wall's. */
const GRANT_TIME = new Date('2026-03-01T09:00:00.000Z');

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  other = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors', 'admin:events']);
  member = await registerMember(harness, tenant, admin, 'voucher-member');
});
afterAll(() => harness.close());

/** A VOUCHER reward of the tenant (or of `owner`), its vouchers valid for 30 days; with `pool`, those codes are its pool. */
function rewardOf(fields: Partial<RewardInput> = {}, owner: TestTenant = tenant, pool?: string[]): Promise<string> {
  return rewardFor(harness, owner, { voucherValidityDays: 30, ...fields }, pool);
}

interface Scenario {
  typeName: string;
  typeId: string;
  reactorId: string;
}

/** A private event type of its own (each test names its own), and one reactor on it with these reactions. */
async function scenario(typeName: string, reactions: unknown[]): Promise<Scenario> {
  const type = await dataOf<{ id: string }>(
    await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name: typeName, description: 'x', isPrivate: true },
    }),
  );
  const created = await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: { name: `${typeName} reactor`, eventType: typeName, reactions },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  return { typeName, typeId: type.id, reactorId: (await dataOf<{ id: string }>(created)).id };
}

/** An accepted report of the scenario's type as the API queues it, under a fresh event id. */
async function reportOf({ typeName, typeId }: Scenario, userId: string | null = member.id): Promise<EventJob> {
  return {
    id: await harness.context.eventIds.allocate(),
    tenantId: tenant.id,
    eventTypeId: typeId,
    eventTypeName: typeName,
    userId,
    payload: {},
    reportedAt: new Date().toISOString(),
    occurredAt: null,
  };
}

/** The event worker's registration step, on a clock stopped at GRANT_TIME. */
function register(jobs: EventJob[]) {
  return registerEvents(
    {
      ...registrationDependencies(harness.context),
      clock: { now: () => GRANT_TIME.getTime(), after: systemClock.after },
    },
    jobs,
  );
}

async function reactionsOf(eventId: number) {
  const response = await harness.request(tenant, 'GET', `/v1/events/${eventId}/reactions?wait=0`);
  expect(response.status).toBe(200);
  return dataOf<{ totalPoints: number; reactions: Record<string, unknown>[] }>(response);
}

async function vouchersOf(eventId: number) {
  const knex = harness.context.orm.em.fork().getKnex();
  const found = await knex.raw<{ rows: { id: string; created_at: string; expires_at: string }[] }>(
    'select id, user_id, reward_id, reactor_id, created_at, expires_at from voucher where event_id = ?',
    [eventId],
  );
  return found.rows.map((row) => ({
    ...row,
    created_at: new Date(row.created_at),
    expires_at: new Date(row.expires_at),
  }));
}

const pointsOfEvent = async (eventId: number) =>
  (
    await queryOne(harness, 'select coalesce(sum(points), 0)::int as points from ledger_entry where event_id = ?', [
      eventId,
    ])
  ).points;

describe('a VOUCHER reaction', () => {
  // docs/events.md#reactions: "`VOUCHER`: `{type: 'VOUCHER', rewardId}` gives the member a voucher
  // of that reward, free, in the transaction that registers the event: once per event and reactor."
  it('gives one voucher per event, listed with the event’s reactions, and once however often the event is registered', async () => {
    const rewardId = await rewardOf();
    const setup = await scenario('COFFEE_EARNED', [TEN_POINTS, { type: 'VOUCHER', rewardId }]);
    const [first, second] = [await reportOf(setup), await reportOf(setup)];
    await register([first!, second!]);
    await register([first!]);
    await register([first!, second!]);
    for (const job of [first!, second!]) {
      const vouchers = await vouchersOf(job.id);
      expect(vouchers).toEqual([
        {
          id: expect.any(String),
          user_id: member.id,
          reward_id: rewardId,
          reactor_id: setup.reactorId,
          created_at: GRANT_TIME,
          expires_at: new Date(GRANT_TIME.getTime() + 30 * 86_400_000),
        },
      ]);
      expect(await reactionsOf(job.id)).toEqual({
        totalPoints: 10,
        reactions: [
          { ...TEN_POINTS, reactorName: 'COFFEE_EARNED reactor', amount: 10 },
          {
            type: 'VOUCHER',
            rewardId,
            reactorName: 'COFFEE_EARNED reactor',
            status: 'GRANTED',
            voucherId: vouchers[0]!.id,
          },
        ],
      });
      expect(await pointsOfEvent(job.id)).toBe(10);
    }
  });

  // docs/events.md#reactions: "a voucher that cannot be given … is recorded as FAILED with its
  // reason, and the event, its points and its other reactions are registered all the same."
  it('whose pool runs out within a batch gives the last code to one event, records the other FAILED, and grants both their points', async () => {
    const rewardId = await rewardOf({ stock: 5 }, tenant, ['POOL-ONLY-CODE']);
    const setup = await scenario('POOL_DRAINED', [TEN_POINTS, { type: 'VOUCHER', rewardId }]);
    const jobs = [await reportOf(setup), await reportOf(setup)];
    await register(jobs);
    const outcomes = await Promise.all(jobs.map(async (job) => (await reactionsOf(job.id)).reactions[1]));
    expect(outcomes.map((outcome) => outcome!.status).sort()).toEqual(['FAILED', 'GRANTED']);
    const failed = outcomes.find((outcome) => outcome!.status === 'FAILED')!;
    expect(failed).toEqual({
      type: 'VOUCHER',
      rewardId,
      reactorName: 'POOL_DRAINED reactor',
      status: 'FAILED',
      reason: "VoucherCodePoolExhaustedError: The reward's pool of voucher codes is empty",
    });
    expect((await Promise.all(jobs.map((job) => vouchersOf(job.id)))).flat()).toHaveLength(1);
    for (const job of jobs) expect(await pointsOfEvent(job.id)).toBe(10);
    // The refused grant had taken one from the stock before the pool refused it: undone with it.
    expect(await queryOne(harness, 'select stock from reward where id = ?', [rewardId])).toEqual({ stock: 4 });
  });

  it('of a reward out of stock records FAILED RewardUnavailableError and still grants the points', async () => {
    const rewardId = await rewardOf({ stock: 1 });
    const setup = await scenario('STOCK_DRAINED', [TEN_POINTS, { type: 'VOUCHER', rewardId }]);
    const [first, second] = [await reportOf(setup), await reportOf(setup)];
    await register([first!]);
    await register([second!]);
    expect((await reactionsOf(first!.id)).reactions[1]).toMatchObject({ status: 'GRANTED' });
    expect(await reactionsOf(second!.id)).toEqual({
      totalPoints: 10,
      reactions: [
        { ...TEN_POINTS, reactorName: 'STOCK_DRAINED reactor', amount: 10 },
        {
          type: 'VOUCHER',
          rewardId,
          reactorName: 'STOCK_DRAINED reactor',
          status: 'FAILED',
          reason: 'RewardUnavailableError: The reward is out of stock',
        },
      ],
    });
    expect(await vouchersOf(second!.id)).toEqual([]);
    expect(await pointsOfEvent(second!.id)).toBe(10);
    expect(await queryOne(harness, 'select stock from reward where id = ?', [rewardId])).toEqual({ stock: 0 });
  });

  it('of a reward deleted since the reactor was saved records FAILED and still grants the points', async () => {
    const rewardId = await rewardOf();
    const setup = await scenario('REWARD_GONE', [TEN_POINTS, { type: 'VOUCHER', rewardId }]);
    await harness.context.orm.em.fork().getKnex().raw('delete from reward where id = ?', [rewardId]);
    const job = await reportOf(setup);
    await register([job]);
    expect((await reactionsOf(job.id)).reactions[1]).toEqual({
      type: 'VOUCHER',
      rewardId,
      reactorName: 'REWARD_GONE reactor',
      status: 'FAILED',
      reason: `RewardUnavailableError: No VOUCHER reward ${rewardId} any more`,
    });
    expect(await pointsOfEvent(job.id)).toBe(10);
  });

  // docs/events.md#reactions: "It does not run for the service subject", which has no wallet.
  it('gives the service subject nothing', async () => {
    const rewardId = await rewardOf();
    const setup = await scenario('BUSINESS_DONE', [TEN_POINTS, { type: 'VOUCHER', rewardId }]);
    const job = await reportOf(setup, null);
    await register([job]);
    expect(await vouchersOf(job.id)).toEqual([]);
    expect(await reactionsOf(job.id)).toEqual({ totalPoints: 0, reactions: [] });
  });

  // docs/events.md#testing-reactions: test_reaction computes "exactly as the worker would, storing nothing".
  it('is listed by POST /v1/events/test_reaction without giving anything', async () => {
    const rewardId = await rewardOf();
    const setup = await scenario('TRIED_OUT', [{ type: 'VOUCHER', rewardId }]);
    const before = await queryOne(harness, 'select count(*)::int as n from voucher where reward_id = ?', [rewardId]);
    const response = await harness.request(tenant, 'POST', '/v1/events/test_reaction', {
      token: admin,
      body: { type: setup.typeName, subject: 'voucher-member' },
    });
    expect(response.status).toBe(200);
    expect((await jsonOf(response)).data).toEqual({
      totalPoints: 0,
      reactions: [{ type: 'VOUCHER', rewardId, reactorName: 'TRIED_OUT reactor' }],
      activatedReactors: [{ name: 'TRIED_OUT reactor', id: setup.reactorId }],
    });
    expect(await queryOne(harness, 'select count(*)::int as n from voucher where reward_id = ?', [rewardId])).toEqual(
      before,
    );
  });
});

// docs/events.md#reactions: "a reactor holds at most one `VOUCHER` reaction. The reward must be a
// `VOUCHER` reward of the tenant when the reactor is saved (`400 ValidationError` naming
// `reactions[i].rewardId` otherwise)".
describe('a reactor with a VOUCHER reaction', () => {
  const body = (reactions: unknown[]) => ({ name: `Voucher ${randomUUID()}`, eventType: 'ANY_EVENT', reactions });
  beforeAll(async () => {
    await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name: 'ANY_EVENT', description: 'x', isPrivate: true },
    });
  });

  it.each([
    ['an unknown reward', async () => randomUUID(), 'reactions[1].rewardId'],
    ["another tenant's reward", async () => rewardOf({}, other), 'reactions[1].rewardId'],
    [
      'a reward that is not a VOUCHER',
      async () => rewardOf({ type: 'PARTNER1_PRODUCT', partnerProductId: 'P-1' }),
      'reactions[1].rewardId',
    ],
    ['a reward id that is not a uuid', async () => 'coffee', 'reactions'],
  ])('naming %s is refused with 400', async (_case, rewardOfCase, property) => {
    const rewardId = await rewardOfCase();
    const response = await harness.request(tenant, 'POST', '/v1/reactors', {
      token: admin,
      body: body([TEN_POINTS, { type: 'VOUCHER', rewardId }]),
    });
    expect(response.status).toBe(400);
    const { data } = await jsonOf(response);
    expect(data.name).toBe('ValidationError');
    expect(data.errors[0].property).toMatch(new RegExp(`^${property.replace(/[[\].]/g, '\\$&')}`));
  });

  it('is refused a second VOUCHER reaction, and a change to an unknown reward', async () => {
    const [first, second] = [await rewardOf(), await rewardOf()];
    const twice = await harness.request(tenant, 'POST', '/v1/reactors', {
      token: admin,
      body: body([
        { type: 'VOUCHER', rewardId: first },
        { type: 'VOUCHER', rewardId: second },
      ]),
    });
    expect(twice.status).toBe(400);
    expect((await jsonOf(twice)).data.errors[0].property).toBe('reactions[1]');
    const created = await harness.request(tenant, 'POST', '/v1/reactors', {
      token: admin,
      body: body([{ type: 'VOUCHER', rewardId: first }]),
    });
    expect(created.status).toBe(201);
    const { id } = await dataOf<{ id: string }>(created);
    const changed = await harness.request(tenant, 'PATCH', `/v1/reactors/${id}`, {
      token: admin,
      body: { reactions: [{ type: 'VOUCHER', rewardId: randomUUID() }] },
    });
    expect(changed.status).toBe(400);
    expect((await jsonOf(changed)).data.errors[0].property).toBe('reactions[0].rewardId');
  });
});
