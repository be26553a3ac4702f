import { isTimeZone } from '../kernel/zoned-time.js';

/** docs/receipts.md#review-settings: the review settings in tenant `configuration.review`, with their defaults. */
export interface ReviewSettings {
  maxAgeDays: number;
  /** Merchants whose receipts are accepted; undefined: any. */
  merchants: string[] | undefined;
  minConfidence: number;
  spotCheckRate: number;
  /** Claims per user per day, by format and by merchant; undefined: no limit. */
  limits: { perFormat?: number; perMerchant?: number };
  /**
   * When INVALID_VENUE applies (docs/receipts.md#review-settings): with `requireVenue: true`, a
   * claim must have been made at one of the tenant's venues (by its location identifier or its
   * submission position). Off by default.
   */
  requireVenue: boolean;
}

export function reviewSettings(configuration: Record<string, unknown> | undefined): ReviewSettings {
  const review = (configuration?.review ?? {}) as Record<string, unknown>;
  const fraction = (value: unknown, fallback: number) =>
    typeof value === 'number' && value >= 0 && value <= 1 ? value : fallback;
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
  const limits = (review.limits ?? {}) as Record<string, unknown>;
  return {
    maxAgeDays: typeof review.maxAgeDays === 'number' && review.maxAgeDays > 0 ? review.maxAgeDays : 90,
    merchants: Array.isArray(review.merchants)
      ? review.merchants.filter((merchant): merchant is string => typeof merchant === 'string')
      : undefined,
    minConfidence: fraction(review.minConfidence, 0.5),
    spotCheckRate: fraction(review.spotCheckRate, 0),
    limits: { perFormat: count(limits.perFormat), perMerchant: count(limits.perMerchant) },
    requireVenue: review.requireVenue === true,
  };
}

/** The zone a tenant's receipts are read in: `configuration.timezone`, else UTC. */
export function tenantTimezone(configuration: Record<string, unknown> | undefined): string {
  const zone = configuration?.timezone;
  return typeof zone === 'string' && isTimeZone(zone) ? zone : 'UTC';
}
