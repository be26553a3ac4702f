// The checks a tenant's settings and token authentication pass before they are stored, from PATCH
// /v1/tenant and the CLI alike (docs/tenant.md#configuration); what may be set is tenant-settings.ts.
import { Type } from 'typebox';
import { isTimeZone } from '../kernel/zoned-time.js';
import { PLATFORM_TOKEN_ISSUER } from '../platform/auth/admin-token.js';
import type { TenantAuthentication } from '../platform/auth/user-token.js';
import { fieldError, ValidationError, type ValidationIssue } from '../platform/errors/app-errors.js';
import { compile, toValidationIssues } from '../platform/validation/ajv.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import { PARTNERS, TenantConfigurationSchema, type TenantSettings } from './tenant-settings.js';

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
