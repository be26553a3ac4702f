import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earn } from '../../shared/ledger/ledger.js';
import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { adjust, spend } from '../../shared/ledger/spend-and-adjust.js';
import { PointsCapExceededError } from '../../shared/platform/errors/app-errors.js';
import type { TenantSettings } from '../../shared/tenants/tenant-settings.js';
import { createHarness, type Harness, queryOne, registerMember, type TestTenant } from '../support/harness.js';

let harness: Harness;
let nextEventId = 9_400_000;

beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

const DAY_MS = 24 * 60 * 60 * 1000;

function inTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return harness.context.orm.em.fork().getKnex().transaction(work);
}

async function tenantWith(configuration: TenantSettings): Promise<{ tenant: TestTenant; member: { id: string } }> {
  const tenant = await harness.createTenant({ configuration });
  const member = await registerMember(harness, tenant, await harness.adminToken(tenant, ['admin:users']), 'member');
  return { tenant, member };
}

function earning(tenant: TestTenant, member: { id: string }, points: number) {
  nextEventId += 1;
  return { tenantId: tenant.id, userId: member.id, points, cause: { eventId: nextEventId, reactorId: randomUUID() } };
}

const lotsOf = async (userId: string) =>
  (
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute<{ remaining: number; expiresAt: Date }[]>(
        'select remaining::int, expires_at as "expiresAt" from points_lot where user_id = ? order by expires_at',
        [userId],
      )
  ).map((lot) => lot.remaining);

// docs/points.md#expiry. decisions §6: "pointsExpiry: {afterDays} (each earn expires on its own; spending uses the oldest first)".
describe('expiring earnings', () => {
  it('gives each EARN its expiresAt, afterDays after it, and a lot of what is left of it', async () => {
    const { tenant, member } = await tenantWith({ pointsExpiry: { afterDays: 30 } });
    const at = new Date('2026-03-01T10:00:00Z');
    await inTransaction((trx) => earn(trx, [earning(tenant, member, 40)], at));
    const entry = await queryOne(
      harness,
      `select points::int, created_at = ? as "createdThen", expires_at - created_at = interval '30 days' as "expiresAfter30Days"
         from ledger_entry where user_id = ?`,
      [at, member.id],
    );
    expect(entry).toEqual({ points: 40, createdThen: true, expiresAfter30Days: true });
    expect(await lotsOf(member.id)).toEqual([40]);
  });

  // Issue 21: "FIFO spending across three earnings of different ages".
  it('spends the oldest unexpired points first, across three earnings of different ages', async () => {
    const { tenant, member } = await tenantWith({ pointsExpiry: { afterDays: 90 } });
    const policy = pointsPolicyOf({ pointsExpiry: { afterDays: 90 } });
    for (const [daysAgo, points] of [
      [20, 100],
      [40, 50],
      [10, 70],
    ] as const)
      await inTransaction((trx) =>
        earn(trx, [earning(tenant, member, points)], new Date(Date.parse('2026-06-01T00:00:00Z') - daysAgo * DAY_MS)),
      );
    // Oldest first: the 50 of 40 days ago, then the 100 of 20 days ago.
    expect(await lotsOf(member.id)).toEqual([50, 100, 70]);
    const spending = (points: number) =>
      inTransaction((trx) =>
        spend(trx, {
          tenantId: tenant.id,
          userId: member.id,
          points,
          cause: { purchaseId: randomUUID() },
          at: new Date('2026-06-01T00:00:00Z'),
          policy,
        }),
      );
    await spending(30);
    expect(await lotsOf(member.id)).toEqual([20, 100, 70]);
    await spending(60);
    expect(await lotsOf(member.id)).toEqual([60, 70]);
    await spending(60);
    expect(await lotsOf(member.id)).toEqual([70]);
  });

  it('takes a negative adjustment from the lots too, so they never hold more than the balance', async () => {
    const { tenant, member } = await tenantWith({ pointsExpiry: { afterDays: 30 } });
    await inTransaction((trx) => earn(trx, [earning(tenant, member, 40)], new Date()));
    await inTransaction((trx) =>
      adjust(trx, {
        entryId: randomUUID(),
        tenantId: tenant.id,
        userId: member.id,
        points: 25,
        cause: { reason: 'goodwill', actor: 'support' },
        at: new Date(),
      }),
    );
    await inTransaction((trx) =>
      adjust(trx, {
        entryId: randomUUID(),
        tenantId: tenant.id,
        userId: member.id,
        points: -50,
        cause: { reason: 'clawback', actor: 'support' },
        at: new Date(),
      }),
    );
    // 65 less 50: the expiring points went first, the adjustment's 15 that never expire are left.
    expect(await lotsOf(member.id)).toEqual([]);
    expect(await queryOne(harness, 'select points::int from wallet where user_id = ?', [member.id])).toEqual({
      points: 15,
    });
  });
});

// docs/points.md#caps. decisions §6: "earn beyond the cap is cut, spend beyond it is refused"; §13: "Periods are
// calendar periods in configuration.timezone (default UTC); a WEEK starts on Monday."
describe('caps', () => {
  it('cuts an earning at what is left of the period, and records the points asked for', async () => {
    const { tenant, member } = await tenantWith({ pointsCaps: { earn: { max: 100, period: 'WEEK' } } });
    // Wednesday 2026-03-04; the week began on Monday 2026-03-02.
    const wednesday = new Date('2026-03-04T12:00:00Z');
    const first = await inTransaction((trx) => earn(trx, [earning(tenant, member, 70)], wednesday));
    const second = await inTransaction((trx) => earn(trx, [earning(tenant, member, 50)], wednesday));
    expect(first).toEqual({ granted: 70, cut: [] });
    expect(second).toMatchObject({ granted: 30, cut: [{ requested: 50, granted: 30 }] });
    expect(
      await queryOne(
        harness,
        `select points::int, requested_points::int as "requestedPoints" from ledger_entry where user_id = ? and requested_points is not null`,
        [member.id],
      ),
    ).toEqual({ points: 30, requestedPoints: 50 });
    // Sunday is the same week: nothing left. Monday starts the next.
    expect(
      await inTransaction((trx) => earn(trx, [earning(tenant, member, 10)], new Date('2026-03-08T23:00:00Z'))),
    ).toMatchObject({ granted: 0 });
    expect(
      await inTransaction((trx) => earn(trx, [earning(tenant, member, 10)], new Date('2026-03-09T00:30:00Z'))),
    ).toMatchObject({ granted: 10, cut: [] });
  });

  it("reads the period's days in the tenant's time zone", async () => {
    const { tenant, member } = await tenantWith({
      timezone: 'America/New_York',
      pointsCaps: { earn: { max: 10, period: 'DAY' } },
    });
    // 03:00 UTC on the 5th is still the 4th in New York.
    await inTransaction((trx) => earn(trx, [earning(tenant, member, 10)], new Date('2026-03-04T15:00:00Z')));
    expect(
      await inTransaction((trx) => earn(trx, [earning(tenant, member, 10)], new Date('2026-03-05T03:00:00Z'))),
    ).toMatchObject({ granted: 0 });
    expect(
      await inTransaction((trx) => earn(trx, [earning(tenant, member, 10)], new Date('2026-03-05T06:00:00Z'))),
    ).toMatchObject({ granted: 10 });
  });

  // Issue 21: "50 concurrent earnings against a cap of 100 grant exactly 100".
  it('grants exactly the cap to 50 concurrent earnings against it', async () => {
    const { tenant, member } = await tenantWith({ pointsCaps: { earn: { max: 100, period: 'DAY' } } });
    const at = new Date();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => inTransaction((trx) => earn(trx, [earning(tenant, member, 7)], at))),
    );
    expect(results.reduce((sum, result) => sum + result.granted, 0)).toBe(100);
    expect(
      await queryOne(
        harness,
        `select w.points::int, (select sum(points)::int from ledger_entry where user_id = w.user_id) as ledger,
                (select sum(earned)::int from points_day where user_id = w.user_id) as earned
           from wallet w where w.user_id = ?`,
        [member.id],
      ),
    ).toEqual({ points: 100, ledger: 100, earned: 100 });
  });

  it('refuses a spend beyond the spend cap with PointsCapExceededError, and spends nothing', async () => {
    const configuration: TenantSettings = { pointsCaps: { spend: { max: 50, period: 'MONTH' } } };
    const { tenant, member } = await tenantWith(configuration);
    await inTransaction((trx) => earn(trx, [earning(tenant, member, 200)], new Date('2026-03-01T00:00:00Z')));
    const spending = (points: number, at: string) =>
      inTransaction((trx) =>
        spend(trx, {
          tenantId: tenant.id,
          userId: member.id,
          points,
          cause: { purchaseId: randomUUID() },
          at: new Date(at),
          policy: pointsPolicyOf(configuration),
        }),
      );
    await spending(30, '2026-03-10T00:00:00Z');
    await expect(spending(21, '2026-03-31T23:00:00Z')).rejects.toBeInstanceOf(PointsCapExceededError);
    await expect(spending(21, '2026-03-31T23:00:00Z')).rejects.toThrow(/20 are left/);
    await spending(20, '2026-03-31T23:00:00Z');
    await spending(50, '2026-04-01T00:00:00Z');
    expect(await queryOne(harness, 'select points::int from wallet where user_id = ?', [member.id])).toEqual({
      points: 100,
    });
  });
});
