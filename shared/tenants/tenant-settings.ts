import { Type, type Static } from 'typebox';

/**
 * What a tenant may set, in one place for `PATCH /v1/tenant` and the CLI alike
 * (docs/tenant.md#configuration). Each key belongs to a feature that reads it; a key no feature
 * reads yet is refused, so a typo is a 400 instead of a setting silently ignored.
 */

/** How many days of earnings tiers count when `tierWindowDays` is not set. */
export const DEFAULT_TIER_WINDOW_DAYS = 365;

const Fraction = Type.Number({ minimum: 0, maximum: 1 });
const DailyCount = Type.Integer({ minimum: 0, maximum: 1_000_000 });

/** docs/receipts.md#review-settings, as shared/receipts/review-settings.ts reads them. */
const ReviewSettings = Type.Object(
  {
    maxAgeDays: Type.Optional(Type.Integer({ minimum: 1, description: 'How old a receipt may be, in days' })),
    merchants: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
        maxItems: 1000,
        description: 'The merchants whose receipts are accepted; absent: any',
      }),
    ),
    minConfidence: Type.Optional({ ...Fraction, description: 'The least OCR confidence decided automatically' }),
    spotCheckRate: Type.Optional({ ...Fraction, description: 'The share of claims sent to a person anyway' }),
    limits: Type.Optional(
      Type.Object(
        { perFormat: Type.Optional(DailyCount), perMerchant: Type.Optional(DailyCount) },
        { additionalProperties: false, description: 'Claims per member per day' },
      ),
    ),
    requireVenue: Type.Optional(Type.Boolean({ description: "Claims must be made at one of the tenant's venues" })),
  },
  { additionalProperties: false },
);

/** docs/api-conventions.md#rate-limits; `burst` at least `perSecond` is checked after the schema. */
const RateLimitOverride = Type.Object(
  {
    perSecond: Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Requests a second, sustained' }),
    burst: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'At least perSecond; default perSecond' }),
    ),
  },
  { additionalProperties: false },
);

/** `https://shop.example` or `http://localhost:8080`: scheme, host and port, nothing after. */
const Origin = Type.String({ pattern: '^https?://[^/?#@\\s]+$', maxLength: 253 });

/** docs/rewards.md#partner-products: where a partner's orders are placed, and the key they are signed with. */
const PartnerEndpoint = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2048,
      description: 'Where orders are POSTed: https (http only where private addresses are allowed)',
    }),
    secret: Type.String({
      minLength: 32,
      maxLength: 1024,
      description: 'The signing secret, at least 32 characters; never shown back',
    }),
  },
  { additionalProperties: false },
);

const CapPeriodSchema = Type.Union(
  [Type.Literal('DAY'), Type.Literal('WEEK'), Type.Literal('MONTH'), Type.Literal('YEAR')],
  { description: 'A calendar period in `timezone`: DAY, WEEK (from Monday), MONTH or YEAR' },
);
export type CapPeriod = Static<typeof CapPeriodSchema>;

/** docs/points.md#caps: at most `max` points per calendar `period` in the tenant's time zone. */
const PointsCap = Type.Object(
  {
    max: Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: 'The most points in one period' }),
    period: CapPeriodSchema,
  },
  { additionalProperties: false },
);

/** docs/points.md#tiers: a member is in the highest tier whose threshold its points earned in the window reach. */
const Tier = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$', description: 'Stable, unique' }),
    name: Type.String({ minLength: 1, maxLength: 128 }),
    threshold: Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: 'Points earned in the window' }),
  },
  { additionalProperties: false },
);

export const PARTNERS = ['PARTNER1', 'PARTNER2'] as const;
export type Partner = (typeof PARTNERS)[number];

export const TenantConfigurationSchema = Type.Object(
  {
    review: Type.Optional(ReviewSettings),
    rateLimit: Type.Optional(RateLimitOverride),
    allowDuplicateContacts: Type.Optional(
      Type.Boolean({ description: 'Lets members share an email address or telephone number' }),
    ),
    profileSchema: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'A JSON Schema (draft-07 or 2020-12) every member profile must also meet',
      }),
    ),
    corsOrigins: Type.Optional(
      Type.Array(Origin, { maxItems: 100, uniqueItems: true, description: 'Browser origins allowed to call the API' }),
    ),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "The IANA zone receipts' dates and the points caps' periods are read in; default UTC",
      }),
    ),
    pointsExpiry: Type.Optional(
      Type.Object(
        { afterDays: Type.Integer({ minimum: 1, maximum: 36_500, description: 'Days from an earning to its expiry' }) },
        { additionalProperties: false, description: 'Each earning expires on its own, `afterDays` after it' },
      ),
    ),
    pointsCaps: Type.Optional(
      Type.Object(
        { earn: Type.Optional(PointsCap), spend: Type.Optional(PointsCap) },
        {
          additionalProperties: false,
          description: 'Earning beyond `earn` in a period is cut; spending beyond `spend` is refused',
        },
      ),
    ),
    tiers: Type.Optional(
      Type.Array(Tier, {
        minItems: 1,
        maxItems: 50,
        description: 'Ordered by strictly rising `threshold`; ids unique',
      }),
    ),
    tierWindowDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3660,
        description: `The days of earnings tiers count, today included; default ${DEFAULT_TIER_WINDOW_DAYS}`,
      }),
    ),
    partners: Type.Optional(
      Type.Object(
        { PARTNER1: Type.Optional(PartnerEndpoint), PARTNER2: Type.Optional(PartnerEndpoint) },
        { additionalProperties: false, description: 'The endpoints partner products are ordered from' },
      ),
    ),
  },
  { additionalProperties: false, description: "The tenant's settings: every key is optional" },
);

export type TenantSettings = Static<typeof TenantConfigurationSchema>;

/** The partners the tenant has an endpoint for: whose products it can sell (docs/rewards.md#partner-products). */
export function configuredPartners(configuration: Record<string, unknown>): Partner[] {
  const partners = (configuration as TenantSettings).partners;
  return PARTNERS.filter((partner) => partners?.[partner]);
}
