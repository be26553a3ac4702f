import { Type, type Static } from 'typebox';
import { PLATFORM_TOKEN_ISSUER } from '../platform/auth/admin-token.js';
import type { TenantAuthentication } from '../platform/auth/user-token.js';
import { fieldError, ValidationError, type ValidationIssue } from '../platform/errors/app-errors.js';
import { compile, toValidationIssues } from '../platform/validation/ajv.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import { isTimeZone } from '../kernel/zoned-time.js';

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

const Issuer = Type.String({ minLength: 1, maxLength: 1024, description: "The `iss` of the tenant's user tokens" });

const SharedKeyAuthentication = Type.Object(
  {
    algorithm: Type.Literal('HS256'),
    issuer: Issuer,
    sharedKey: Type.String({ minLength: 1, maxLength: 1024, description: 'The raw secret (UTF-8); never shown back' }),
  },
  { additionalProperties: false },
);

const JwksAuthentication = Type.Object(
  {
    algorithm: Type.Literal('RS256'),
    issuer: Issuer,
    jwksUrl: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }),
  },
  { additionalProperties: false },
);

const validators = {
  configuration: compile<TenantSettings>(TenantConfigurationSchema),
  HS256: compile(SharedKeyAuthentication),
  RS256: compile(JwksAuthentication),
};

/**
 * The configuration keys being set (a key set to null is a removal and is not checked), checked
 * against the one schema: 400 ValidationError naming each faulty field as `configuration.<path>`.
 * Only what is set is checked, so a tenant whose stored settings predate validation can still
 * change one key; the features keep ignoring a stored value they cannot use.
 */
export function checkConfiguration(
  payloadSchemas: PayloadSchemaCompiler,
  settings: Record<string, unknown>,
  allowPrivateAddresses = false,
): TenantSettings {
  const validate = validators.configuration;
  if (!validate(settings)) refuse('configuration', toValidationIssues(validate.errors, settings));
  const { rateLimit, profileSchema, corsOrigins, timezone, partners, tiers } = settings;
  if (rateLimit?.burst !== undefined && rateLimit.burst < rateLimit.perSecond) {
    const message = 'configuration.rateLimit.burst must be at least configuration.rateLimit.perSecond';
    throw fieldError('configuration.rateLimit.burst', rateLimit.burst, 'minimum', message);
  }
  // The same compiler the members' profiles meet: a schema that does not compile here never runs.
  if (profileSchema) {
    try {
      payloadSchemas.compile(profileSchema, 'configuration.profileSchema');
    } catch (error) {
      const message = `configuration.profileSchema: ${(error as Error).message}`;
      throw fieldError('configuration.profileSchema', undefined, 'validSchema', message);
    }
  }
  corsOrigins?.forEach((origin, index) => {
    if (!isOrigin(origin)) {
      throw fieldError(
        `configuration.corsOrigins.${index}`,
        origin,
        'origin',
        `configuration.corsOrigins.${index} must be an origin like https://shop.example (scheme, host and port only, lower case)`,
      );
    }
  });
  if (timezone !== undefined && !isTimeZone(timezone)) {
    throw fieldError('configuration.timezone', timezone, 'timeZone', 'configuration.timezone must be an IANA zone');
  }
  tiers?.forEach((tier, index) => {
    const before = tiers[index - 1];
    if (before && tier.threshold <= before.threshold) {
      const field = `configuration.tiers.${index}.threshold`;
      throw fieldError(
        field,
        tier.threshold,
        'ascending',
        `${field} must be greater than the tier before's (${before.threshold}): tiers are listed by strictly rising threshold`,
      );
    }
    if (tiers.findIndex((other) => other.id === tier.id) !== index) {
      const field = `configuration.tiers.${index}.id`;
      throw fieldError(field, tier.id, 'unique', `${field} "${tier.id}" is used by an earlier tier`);
    }
  });
  // Orders carry members' purchases: in the clear only to a partner on this host's own network.
  for (const partner of PARTNERS) {
    const url = partners?.[partner]?.url;
    if (url !== undefined && !url.startsWith('https://') && !allowPrivateAddresses) {
      const field = `configuration.partners.${partner}.url`;
      throw fieldError(field, url, 'https', `${field} must be an https address`);
    }
  }
  return settings;
}

/**
 * A tenant's authentication, checked against the branch its `algorithm` picks, so a JWKS address
 * sent with HS256 is named as the field HS256 does not take (docs/tenant.md#authentication).
 */
export function checkAuthentication(value: unknown): TenantAuthentication {
  const algorithm = (value as { algorithm?: unknown } | null)?.algorithm;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fieldError('authentication', value, 'type', 'authentication must be an object');
  }
  if (algorithm !== 'HS256' && algorithm !== 'RS256') {
    throw fieldError('authentication.algorithm', algorithm, 'enum', 'authentication.algorithm must be HS256 or RS256');
  }
  const validate = validators[algorithm];
  if (!validate(value)) refuse('authentication', toValidationIssues(validate.errors, value));
  const authentication = value as TenantAuthentication;
  // Tokens carrying the platform's issuer are admin tokens; a tenant may not claim it.
  if (authentication.issuer === PLATFORM_TOKEN_ISSUER) {
    throw fieldError(
      'authentication.issuer',
      authentication.issuer,
      'reserved',
      `authentication.issuer "${PLATFORM_TOKEN_ISSUER}" is reserved for admin tokens`,
    );
  }
  return authentication;
}

function refuse(prefix: string, issues: ValidationIssue[]): never {
  const named = issues.map((issue) => ({
    ...issue,
    property: issue.property === '(body)' ? prefix : `${prefix}.${issue.property}`,
    // ajv's messages name the path within the value ("review.minConfidence must be <= 1", "body
    // must be object"): the field the client sent is that path under `prefix`.
    constraints: Object.fromEntries(
      Object.entries(issue.constraints).map(([rule, message]) => [
        rule,
        issue.property === '(body)' ? message.replace(/^body\b/, prefix) : `${prefix}.${message}`,
      ]),
    ),
  }));
  throw new ValidationError(
    `Invalid ${prefix}: ${named.flatMap((issue) => Object.values(issue.constraints)).join('; ')}`,
    named,
  );
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/** The partners the tenant has an endpoint for: whose products it can sell (docs/rewards.md#partner-products). */
export function configuredPartners(configuration: Record<string, unknown>): Partner[] {
  const partners = (configuration as TenantSettings).partners;
  return PARTNERS.filter((partner) => partners?.[partner]);
}
