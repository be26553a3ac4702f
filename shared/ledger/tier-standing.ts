import { addDays, type Day } from './calendar.js';
import type { TierStanding } from './outlook-resource.js';
import type { PointsPolicy } from './points-policy.js';

/**
 * A member's tier (docs/points.md#tiers), computed from the points it earned in the tier
 * window: the last `tierWindowDays` days of the tenant's zone, today included. Pure: the sums
 * come from `points_day` (points-outlook.ts reads them in one bounded query).
 */

/** How far ahead `expiringEarn` looks: the earnings that leave the window within this many days. */
export const EXPIRING_EARN_DAYS = 30;

/** The days a tier window holds on `today`, and the part of it whose earnings leave it within 30 days. */
export interface TierWindow {
  first: Day;
  last: Day;
  /** The last day of the window's first 30 days (the window's last day when it is shorter). */
  expiringLast: Day;
}

/** The sums over a tier window's days of `points_day.earned` (EARN, less reversals). */
export interface WindowEarnings {
  /** E: every day of the window. */
  total: number;
  /** The window's first day: what leaves it tomorrow. */
  onFirstDay: number;
  /** The window's first 30 days (`TierWindow.expiringLast`). */
  onExpiringDays: number;
}

export function tierWindow(today: Day, windowDays: number): TierWindow {
  const first = addDays(today, -(windowDays - 1));
  const expiringLast = windowDays <= EXPIRING_EARN_DAYS ? today : addDays(first, EXPIRING_EARN_DAYS - 1);
  return { first, last: today, expiringLast };
}

/**
 * The highest tier whose threshold the window's earnings reach, with its three numbers; null
 * when the tenant has no tiers or the earnings reach none. `tiers` are by strictly rising
 * threshold (the tenant settings' validation sees to it).
 */
export function tierStanding(earnings: WindowEarnings, policy: Pick<PointsPolicy, 'tiers'>): TierStanding | null {
  const { tiers } = policy;
  const E = earnings.total;
  const index = tiers.findLastIndex((tier) => E >= tier.threshold);
  const tier = tiers[index];
  if (!tier) return null;
  const next = tiers[index + 1];
  return {
    id: tier.id,
    name: tier.name,
    expiringEarn: earnings.onExpiringDays,
    pointsToMaintain: Math.max(0, tier.threshold - (E - earnings.onFirstDay)),
    pointsToNextTier: next ? next.threshold - E : 0,
  };
}
