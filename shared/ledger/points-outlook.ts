import type { Knex } from 'knex';
import { DAY_MS, dayOf, periodOf } from './calendar.js';
import { sumDays, type DayColumn } from './points-days.js';
import type { PointsCap, PointsPolicy } from './points-policy.js';
import { tierStanding, tierWindow } from './tier-standing.js';
import type { ExpirySummaryEntry, MaxPointsSummary, TierStanding, WalletPrediction } from './outlook-resource.js';

/**
 * What a member's points look like ahead (docs/points.md#predictions): its tier, what is left of
 * its caps this period, and what of its points expires soon. Read-only, and every read is bounded
 * whatever the length of the member's history: the tier reads the window's `points_day` rows, a
 * cap the rows of its period, the expiry the member's lots due within a year (index
 * `points_lot (user_id, expires_at)`); the ledger itself is never read.
 */

/** The periods of an EXPIRY summary, in days, in this order. */
export const EXPIRY_PERIODS = [1, 7, 30, 90, 365] as const;

/** The member's tier at `now`, or null: one query over the window's days, none without tiers. */
export async function readTier(
  knex: Knex | Knex.Transaction,
  userId: string,
  policy: PointsPolicy,
  now: Date,
): Promise<TierStanding | null> {
  if (policy.tiers.length === 0) return null;
  const window = tierWindow(dayOf(now, policy.timezone), policy.tierWindowDays);
  const [sums] = (
    await knex.raw<{ rows: { total: string; on_first_day: string; on_expiring_days: string }[] }>(
      `select coalesce(sum(earned), 0) as total,
              coalesce(sum(earned) filter (where day = ?::date), 0) as on_first_day,
              coalesce(sum(earned) filter (where day <= ?::date), 0) as on_expiring_days
         from points_day
        where user_id = ? and day between ? and ?`,
      [window.first, window.expiringLast, userId, window.first, window.last],
    )
  ).rows;
  return tierStanding(
    {
      total: Number(sums?.total ?? 0),
      onFirstDay: Number(sums?.on_first_day ?? 0),
      onExpiringDays: Number(sums?.on_expiring_days ?? 0),
    },
    policy,
  );
}

/**
 * The member's predictions at `now`; a member of the answer is present only when its setting is
 * (the spend cap, the earn cap, the expiry), so a tenant with none of them answers `{}`.
 */
export async function readPredictions(
  knex: Knex | Knex.Transaction,
  userId: string,
  policy: PointsPolicy,
  now: Date,
): Promise<WalletPrediction> {
  const today = dayOf(now, policy.timezone);
  const [spend, earn, expiry] = await Promise.all([
    policy.spendCap ? maxPoints(knex, userId, 'spent', policy.spendCap, today) : undefined,
    policy.earnCap ? maxPoints(knex, userId, 'earned', policy.earnCap, today) : undefined,
    policy.expiryAfterDays !== undefined ? dueToExpire(knex, userId, now) : undefined,
  ]);
  return {
    ...(spend ? { pointsSpendPrediction: { overallSummary: { type: 'MAX_POINTS' as const, summary: spend } } } : {}),
    ...(earn ? { pointsEarnPrediction: { overallSummary: { type: 'MAX_POINTS' as const, summary: earn } } } : {}),
    ...(expiry ? { pointsExpiryPrediction: { overallSummary: { type: 'EXPIRY' as const, summary: expiry } } } : {}),
  };
}

/**
 * A cap's summary for the period holding `today`, counted as the cap itself counts (the earn
 * cap `earned`, the spend cap `spent`, over the period's `points_day` rows). `percentageUsed`
 * is rounded down to two decimals, so it reads 100 only once the cap is reached.
 */
async function maxPoints(
  knex: Knex | Knex.Transaction,
  userId: string,
  column: DayColumn,
  cap: PointsCap,
  today: string,
): Promise<MaxPointsSummary> {
  const { first, last } = periodOf(today, cap.period);
  const used = Math.max(0, (await sumDays(knex, column, [{ userId, first, last }])).get(userId) ?? 0);
  return {
    pointsCap: cap.max,
    remainingPoints: Math.max(0, cap.max - used),
    percentageUsed: Math.min(100, Math.floor((used * 10_000) / cap.max) / 100),
  };
}

/**
 * What of the member's lots expires within each of the next 1, 7, 30, 90 and 365 days,
 * cumulative: period N sums the lots whose `expiresAt` is at most `now` + N days. A lot already
 * due but not swept yet (`expiresAt` <= `now`) counts in every period: it expires at the next
 * sweep. One query over the lots due within a year.
 */
async function dueToExpire(knex: Knex | Knex.Transaction, userId: string, now: Date): Promise<ExpirySummaryEntry[]> {
  const bounds = EXPIRY_PERIODS.map((days) => new Date(now.getTime() + days * DAY_MS));
  const filters = EXPIRY_PERIODS.map(
    (days) => `coalesce(sum(remaining) filter (where expires_at <= ?), 0) as due_${days}`,
  ).join(', ');
  const [row] = (
    await knex.raw<{ rows: Record<string, string>[] }>(
      `select ${filters} from points_lot where user_id = ? and expires_at <= ?`,
      [...bounds, userId, new Date(now.getTime() + Math.max(...EXPIRY_PERIODS) * DAY_MS)],
    )
  ).rows;
  return EXPIRY_PERIODS.map((days) => ({ pointsDueToExpire: Number(row?.[`due_${days}`] ?? 0), timePeriod: days }));
}
