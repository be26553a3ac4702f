import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earn } from '../../shared/ledger/ledger.js';
import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { spend } from '../../shared/ledger/spend-and-adjust.js';
import type { TenantSettings } from '../../shared/tenants/tenant-settings.js';
import { createHarness, dataOf, registerMember, type Harness, type Json, type TestTenant } from '../support/harness.js';
import { ManualClock } from '../support/manual-clock.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

let harness: Harness;
let clock: ManualClock;
let nextEventId = 9_700_000;

beforeAll(async () => {
  // The service's "now" is the test's: a tier window or a cap period moves when the test moves the clock.
  clock = new ManualClock();
  harness = await createHarness({ clock });
});
afterAll(() => harness.close());

/** Moves the service's clock on to `iso`; the tests below are in time order, as the manual clock only goes forward. */
function moveTo(iso: string): Date {
  const target = Date.parse(iso);
  if (target < clock.now()) throw new Error(`the clock is past ${iso} already`);
  clock.advance(target - clock.now());
  return new Date(target);
}

const now = () => new Date(clock.now());
const daysFromNow = (days: number) => new Date(clock.now() + days * DAY_MS);

interface Member {
  id: string;
  token: string;
}

async function tenantWith(configuration: TenantSettings): Promise<{ tenant: TestTenant; member: Member }> {
  const tenant = await harness.createTenant({ configuration });
  const admin = await harness.adminToken(tenant, ['admin:users']);
  const registered = await registerMember(harness, tenant, admin, `member-${randomUUID()}`);
  return { tenant, member: { id: registered.id, token: await harness.userToken(tenant, registered.authIdentifier) } };
}

function inTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return harness.context.orm.em.fork().getKnex().transaction(work);
}

async function earnAt(tenant: TestTenant, member: Member, points: number, at: Date): Promise<void> {
  nextEventId += 1;
  await inTransaction((trx) =>
    earn(
      trx,
      [{ tenantId: tenant.id, userId: member.id, points, cause: { eventId: nextEventId, reactorId: randomUUID() } }],
      at,
    ),
  );
}

async function spendAt(tenant: TestTenant, member: Member, points: number, at: Date, settings: TenantSettings) {
  await inTransaction((trx) =>
    spend(trx, {
      tenantId: tenant.id,
      userId: member.id,
      points,
      cause: { purchaseId: randomUUID() },
      at,
      policy: pointsPolicyOf(settings),
    }),
  );
}

async function tierOf(tenant: TestTenant, member: Member): Promise<Json> {
  const response = await harness.request(tenant, 'GET', '/v1/users/me/wallet', { token: member.token });
  expect(response.status).toBe(200);
  const wallet = await dataOf<Json>(response);
  // rewards-interface "Wallet": "tier | object or null" — the key is always there.
  expect(wallet).toHaveProperty('tier');
  return wallet.tier;
}

async function predictionsOf(tenant: TestTenant, member: Member): Promise<Json> {
  const response = await harness.request(tenant, 'GET', '/v1/users/me/wallet/predictions', { token: member.token });
  expect(response.status).toBe(200);
  return dataOf<Json>(response);
}

const TIERS: TenantSettings = {
  tiers: [
    { id: 'bronze', name: 'Bronze', threshold: 100 },
    { id: 'silver', name: 'Silver', threshold: 500 },
    { id: 'gold', name: 'Gold', threshold: 1000 },
  ],
  tierWindowDays: 90,
};

// decisions §6: "tiers: [{id, name, threshold}] with tierWindowDays (tier by points earned in the window)";
// rewards-interface "Wallet": "tier | object or null | id, name, expiringEarn, pointsToMaintain, pointsToNextTier".
describe("the wallet's tier", () => {
  it('is null when the tenant has no tiers, whatever the member earned', async () => {
    moveTo('2026-01-15T12:00:00Z');
    const { tenant, member } = await tenantWith({});
    await earnAt(tenant, member, 5000, now());
    expect(await tierOf(tenant, member)).toBeNull();
  });

  // decisions §13 "Tier fields": "pointsToNextTier is the points still to earn in the window to reach the next tier
  // (0 at the top tier)".
  it('is the highest tier whose threshold the window earnings reach: null one below the lowest, each tier exactly at its threshold', async () => {
    moveTo('2026-01-16T12:00:00Z');
    const { tenant, member } = await tenantWith(TIERS);
    await earnAt(tenant, member, 99, now());
    expect(await tierOf(tenant, member)).toBeNull();
    await earnAt(tenant, member, 1, now());
    expect(await tierOf(tenant, member)).toEqual({
      id: 'bronze',
      name: 'Bronze',
      expiringEarn: 0,
      pointsToMaintain: 0,
      pointsToNextTier: 400,
    });
    await earnAt(tenant, member, 399, now());
    expect(await tierOf(tenant, member)).toMatchObject({ id: 'bronze', pointsToNextTier: 1 });
    await earnAt(tenant, member, 1, now());
    expect(await tierOf(tenant, member)).toMatchObject({ id: 'silver', pointsToNextTier: 500 });
    await earnAt(tenant, member, 499, now());
    expect(await tierOf(tenant, member)).toMatchObject({ id: 'silver', pointsToNextTier: 1 });
    await earnAt(tenant, member, 1, now());
    expect(await tierOf(tenant, member)).toEqual({
      id: 'gold',
      name: 'Gold',
      expiringEarn: 0,
      pointsToMaintain: 0,
      pointsToNextTier: 0,
    });
    // Above the top threshold, still the top tier with nothing left to reach.
    await earnAt(tenant, member, 250, now());
    expect(await tierOf(tenant, member)).toMatchObject({ id: 'gold', pointsToNextTier: 0 });
  });

  // decisions §13 "Tier fields": "pointsToMaintain the points still to earn in the window to keep the current tier
  // when today's oldest earnings leave it; expiringEarn the points earned in the window that leave it within the
  // next 30 days".
  it('counts pointsToMaintain and expiringEarn from the window as it moves, day by day', async () => {
    const today = moveTo('2026-04-20T12:00:00Z');
    const { tenant, member } = await tenantWith(TIERS);
    // A 90-day window holds today and the 89 days before: the first day is 89 days ago.
    const firstDay = new Date(today.getTime() - 89 * DAY_MS);
    await earnAt(tenant, member, 300, firstDay);
    await earnAt(tenant, member, 250, new Date(firstDay.getTime() + 40 * DAY_MS));
    // E = 550: silver. Once the first day's 300 leave, 250 stay: 250 short of silver's 500.
    expect(await tierOf(tenant, member)).toEqual({
      id: 'silver',
      name: 'Silver',
      expiringEarn: 300,
      pointsToMaintain: 250,
      pointsToNextTier: 450,
    });

    clock.advance(DAY_MS);
    // The 300 left the window: E = 250, bronze, which the days that stay keep. The 250 leave in 40 days, not 30.
    expect(await tierOf(tenant, member)).toEqual({
      id: 'bronze',
      name: 'Bronze',
      expiringEarn: 0,
      pointsToMaintain: 0,
      pointsToNextTier: 250,
    });

    clock.advance(10 * DAY_MS);
    // The 250 are now on the window's 30th day: they leave it within the next 30 days.
    expect(await tierOf(tenant, member)).toMatchObject({ id: 'bronze', expiringEarn: 250, pointsToMaintain: 0 });

    clock.advance(29 * DAY_MS);
    // The 250 are on the window's first day: once they leave, nothing stays, 100 short of bronze.
    expect(await tierOf(tenant, member)).toMatchObject({ id: 'bronze', expiringEarn: 250, pointsToMaintain: 100 });

    clock.advance(DAY_MS);
    expect(await tierOf(tenant, member)).toBeNull();
  });
});

// rewards-interface "Wallet prediction": "Any, all or none of the three members may be present, depending on the
// user's configured caps and expiry settings"; decisions §6: "a member is absent when its setting is absent".
describe('wallet predictions', () => {
  it('are {} when the tenant sets no cap and no expiry', async () => {
    moveTo('2026-06-01T12:00:00Z');
    const { tenant, member } = await tenantWith({ tiers: TIERS.tiers });
    await earnAt(tenant, member, 40, now());
    expect(await predictionsOf(tenant, member)).toEqual({});
  });

  // rewards-interface "Wallet prediction": "For type MAX_POINTS, summary is {pointsCap, remainingPoints,
  // percentageUsed} (numbers; percentageUsed 0 to 100)"; decisions §13: "Periods are calendar periods in
  // configuration.timezone (default UTC); a WEEK starts on Monday."
  it('show what is left of each cap in the current period, and start again in the next (a WEEK from Monday, in the tenant zone)', async () => {
    const settings: TenantSettings = {
      timezone: 'Asia/Tokyo',
      pointsCaps: { earn: { max: 300, period: 'WEEK' }, spend: { max: 200, period: 'DAY' } },
    };
    // Sunday 2026-06-07, 23:00 in Tokyo (14:00 UTC).
    moveTo('2026-06-07T14:00:00Z');
    const { tenant, member } = await tenantWith(settings);
    expect(await predictionsOf(tenant, member)).toEqual({
      pointsSpendPrediction: {
        overallSummary: { type: 'MAX_POINTS', summary: { pointsCap: 200, remainingPoints: 200, percentageUsed: 0 } },
      },
      pointsEarnPrediction: {
        overallSummary: { type: 'MAX_POINTS', summary: { pointsCap: 300, remainingPoints: 300, percentageUsed: 0 } },
      },
    });
    await earnAt(tenant, member, 100, now());
    await spendAt(tenant, member, 50, now(), settings);
    let predictions = await predictionsOf(tenant, member);
    // 100 of 300: 33.333…, rounded down to two decimals.
    expect(predictions.pointsEarnPrediction.overallSummary.summary).toEqual({
      pointsCap: 300,
      remainingPoints: 200,
      percentageUsed: 33.33,
    });
    expect(predictions.pointsSpendPrediction.overallSummary.summary).toEqual({
      pointsCap: 200,
      remainingPoints: 150,
      percentageUsed: 25,
    });
    // An earning past the cap is cut at it: nothing left, 100% used, never more.
    await earnAt(tenant, member, 500, now());
    predictions = await predictionsOf(tenant, member);
    expect(predictions.pointsEarnPrediction.overallSummary.summary).toEqual({
      pointsCap: 300,
      remainingPoints: 0,
      percentageUsed: 100,
    });

    // Monday 00:00 in Tokyo, still Sunday in UTC: a new day and a new week for this tenant.
    clock.advance(HOUR_MS);
    predictions = await predictionsOf(tenant, member);
    expect(predictions.pointsEarnPrediction.overallSummary.summary).toEqual({
      pointsCap: 300,
      remainingPoints: 300,
      percentageUsed: 0,
    });
    expect(predictions.pointsSpendPrediction.overallSummary.summary).toEqual({
      pointsCap: 200,
      remainingPoints: 200,
      percentageUsed: 0,
    });
  });

  it('show only the cap the tenant sets', async () => {
    moveTo('2026-06-10T12:00:00Z');
    const { tenant, member } = await tenantWith({ pointsCaps: { spend: { max: 80, period: 'MONTH' } } });
    expect(Object.keys(await predictionsOf(tenant, member))).toEqual(['pointsSpendPrediction']);
  });

  // rewards-interface "Wallet prediction": "For type EXPIRY, summary is an array of exactly 5 entries
  // {pointsDueToExpire, timePeriod} for time periods 1, 7, 30, 90, 365 (days)"; decisions §12: "Expiry predictions:
  // pointsDueToExpire for period N is the points whose expiry falls within the next N days (cumulative)."
  it('show the points due to expire within exactly 1, 7, 30, 90 and 365 days, cumulative', async () => {
    moveTo('2026-07-01T12:00:00Z');
    const afterDays = 200;
    const { tenant, member } = await tenantWith({ pointsExpiry: { afterDays } });
    // Each earning expires `afterDays` after it: earned `afterDays - d` days ago, it is due in d days.
    const dueIn = (days: number) => daysFromNow(days - afterDays);
    await earnAt(tenant, member, 5, dueIn(-1)); // due yesterday, not swept yet: it expires at the next sweep
    await earnAt(tenant, member, 10, dueIn(0.5));
    await earnAt(tenant, member, 20, dueIn(5));
    await earnAt(tenant, member, 1, dueIn(7)); // exactly 7 days from now: within the next 7 days
    await earnAt(tenant, member, 40, dueIn(20));
    await earnAt(tenant, member, 80, dueIn(80));
    await earnAt(tenant, member, 160, dueIn(200));
    const predictions = await predictionsOf(tenant, member);
    expect(predictions).toEqual({
      pointsExpiryPrediction: {
        overallSummary: {
          type: 'EXPIRY',
          summary: [
            { pointsDueToExpire: 15, timePeriod: 1 },
            { pointsDueToExpire: 36, timePeriod: 7 },
            { pointsDueToExpire: 76, timePeriod: 30 },
            { pointsDueToExpire: 156, timePeriod: 90 },
            { pointsDueToExpire: 316, timePeriod: 365 },
          ],
        },
      },
    });

    // What is spent no longer expires: a spend takes the soonest to expire first (the 5 and the 10, then 1 of the 20).
    await spendAt(tenant, member, 16, now(), { pointsExpiry: { afterDays } });
    const after = await predictionsOf(tenant, member);
    expect(after.pointsExpiryPrediction.overallSummary.summary.map((entry: Json) => entry.pointsDueToExpire)).toEqual([
      0, 20, 60, 140, 300,
    ]);
  });

  it('are exactly five zero entries for a member with no expiring points', async () => {
    moveTo('2026-07-02T12:00:00Z');
    const { tenant, member } = await tenantWith({ pointsExpiry: { afterDays: 30 } });
    expect((await predictionsOf(tenant, member)).pointsExpiryPrediction.overallSummary.summary).toEqual(
      [1, 7, 30, 90, 365].map((timePeriod) => ({ pointsDueToExpire: 0, timePeriod })),
    );
  });
});

// rewards-interface: "GET /users/{id}/wallet/predictions: admin token with at least scope read:users" and
// "GET /users/me/wallet/predictions: user token. Same response."
describe('who reads the predictions and the tier', () => {
  // A missing scope is 401 here like every failure to authenticate (docs/api-conventions.md#authentication), not 403.
  it('answers the member with its user token and an admin with read:users, the same; 401 without the scope or a token', async () => {
    moveTo('2026-08-03T12:00:00Z');
    const { tenant, member } = await tenantWith({ ...TIERS, pointsExpiry: { afterDays: 30 } });
    await earnAt(tenant, member, 120, now());
    const own = await predictionsOf(tenant, member);
    const reader = await harness.adminToken(tenant, ['read:users']);
    const byAdmin = await harness.request(tenant, 'GET', `/v1/users/${member.id}/wallet/predictions`, {
      token: reader,
    });
    expect(byAdmin.status).toBe(200);
    expect(await dataOf(byAdmin)).toEqual(own);
    expect(own.pointsExpiryPrediction.overallSummary.summary[2]).toEqual({ pointsDueToExpire: 120, timePeriod: 30 });

    const wallet = await harness.request(tenant, 'GET', `/v1/users/${member.id}/wallet`, { token: reader });
    expect((await dataOf<Json>(wallet)).tier).toEqual(await tierOf(tenant, member));

    const withoutScope = await harness.adminToken(tenant, ['admin:vouchers']);
    const refused = await harness.request(tenant, 'GET', `/v1/users/${member.id}/wallet/predictions`, {
      token: withoutScope,
    });
    expect(refused.status).toBe(401);
    expect((await harness.request(tenant, 'GET', `/v1/users/${member.id}/wallet/predictions`)).status).toBe(401);
    expect((await harness.request(tenant, 'GET', '/v1/users/me/wallet/predictions')).status).toBe(401);
  });

  it("answers 404 for an unknown member and for another tenant's member", async () => {
    const { tenant } = await tenantWith({ pointsExpiry: { afterDays: 30 } });
    const { member: stranger } = await tenantWith({ pointsExpiry: { afterDays: 30 } });
    const reader = await harness.adminToken(tenant, ['read:users']);
    for (const id of [randomUUID(), stranger.id]) {
      const response = await harness.request(tenant, 'GET', `/v1/users/${id}/wallet/predictions`, { token: reader });
      expect(response.status).toBe(404);
    }
  });
});
