import { auditedChange } from '../shared/audit/audit-log.js';
import { mintAdminToken } from '../shared/platform/auth/admin-token.js';
import { isScope, SCOPES } from '../shared/platform/auth/scopes.js';
import { loadConfig } from '../shared/platform/config/config.js';
import { closeContext, createContext, type AppContext } from '../shared/context.js';
import { checkDependencies } from '../shared/platform/db/dependency-check.js';
import { ensureDatabase } from '../shared/platform/db/ensure-database.js';
import { migrate } from '../shared/platform/db/orm.js';
import { createLogger } from '../shared/platform/logging/logger.js';
import type { TenantAuthentication } from '../shared/platform/auth/user-token.js';
import { createTenant, findTenantBySlug, listTenants, rotateApiKey } from '../shared/tenants/tenant-service.js';

export class UsageError extends Error {}

export type Options = Record<string, string | boolean | undefined>;

/** The CLI acts as an operator, not as an admin token: its audit entries say so. */
const CLI_ACTOR = { subject: 'cli', scopes: [] };

export async function runCommand(positionals: string[], options: Options): Promise<unknown> {
  const command = positionals.join(' ');
  switch (command) {
    case 'migrate':
      return withPlatform(async (context) => ({ applied: await migrate(context.orm) }));
    case 'tenant create':
      return withPlatform((context) =>
        createTenant(context.orm.em.fork(), {
          name: required(options, 'name'),
          slug: required(options, 'slug'),
          authentication: authentication(options),
          configuration: configuration(options),
        }),
      );
    case 'tenant list':
      return withPlatform((context) => listTenants(context.orm.em.fork()));
    case 'tenant rotate-key':
      return withPlatform(async (context) => {
        const { after, key } = await auditedChange(
          context,
          context.orm.em.fork(),
          (em) => rotateApiKey(em, required(options, 'tenant')),
          (rotated) => ({
            tenantId: rotated.after.id,
            actor: CLI_ACTOR,
            action: 'tenant.api_key_rotated',
            resourceType: 'tenant',
            resourceId: rotated.after.id,
            before: { keyPrefix: rotated.before.keyPrefix },
            after: { keyPrefix: rotated.after.keyPrefix },
          }),
        );
        return { ...after, key };
      });
    case 'token admin':
      return withPlatform(async (context) => {
        const tenant = await findTenantBySlug(context.orm.em.fork(), required(options, 'tenant'));
        const scopes = required(options, 'scope').split(/\s+/).filter(Boolean);
        const unknown = scopes.filter((scope) => !isScope(scope));
        if (unknown.length)
          throw new UsageError(`Unknown scope ${unknown.join(', ')}; the scopes are: ${SCOPES.join(' ')}`);
        const token = await mintAdminToken(context.config.platformTokenSecret, {
          tenantId: tenant.id,
          scopes,
          subject: optional(options, 'subject') ?? 'cli',
          ttl: optional(options, 'ttl') ?? '1h',
        });
        return { token };
      });
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

/** Connects as the service does, migrating first so the CLI works on a fresh machine too. */
async function withPlatform<T>(work: (context: AppContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  await checkDependencies(config.databaseUrl, config.redisUrl);
  await ensureDatabase(config.databaseUrl);
  const context = await createContext(config, createLogger(process.env.LOG_LEVEL ?? 'warn', 2));
  try {
    await migrate(context.orm);
    return await work(context);
  } finally {
    await closeContext(context);
  }
}

function authentication(options: Options): TenantAuthentication | null {
  const algorithm = optional(options, 'auth-algorithm');
  if (!algorithm) return null;
  const issuer = required(options, 'auth-issuer');
  // docs/operations.md#cli: the shared key is the raw secret (UTF-8), never decoded.
  if (algorithm === 'HS256') return { algorithm, issuer, sharedKey: required(options, 'auth-shared-key') };
  if (algorithm === 'RS256') return { algorithm, issuer, jwksUrl: required(options, 'auth-jwks-url') };
  throw new UsageError(`--auth-algorithm must be HS256 or RS256, not "${algorithm}"`);
}

function configuration(options: Options): Record<string, unknown> {
  const raw = optional(options, 'configuration');
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new UsageError('--configuration must be a JSON object');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError('--configuration must be a JSON object');
  return parsed as Record<string, unknown>;
}

function optional(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function required(options: Options, name: string): string {
  const value = optional(options, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}
