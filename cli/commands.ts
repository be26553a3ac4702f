import type { Actor } from '../shared/audit/audit-job.js';
import { loadConfig, parseLifetime, type Config } from '../shared/platform/config/config.js';
import type { TenantAuthentication } from '../shared/platform/auth/user-token.js';
import { isScope, SCOPES } from '../shared/platform/auth/scopes.js';
import { cliLogger, CommandError, openQueue, UsageError, withCliPlatform, type CliPlatform } from './cli-platform.js';

export { CommandError, UsageError };

export type Options = Record<string, string | boolean | undefined>;

/** The CLI acts as an operator, not as an admin token: its audit entries say so. */
const CLI_ACTOR: Actor = { subject: 'cli', scopes: [] };

type Command = (options: Options, config: Config) => Promise<unknown>;

/**
 * Each command loads what it uses when it runs, so none pays for another's modules: the CLI starts
 * in the time its own command needs (docs/operations.md#cli).
 */
const COMMANDS: Record<string, Command> = {
  migrate: migrateCommand,
  'tenant create': (options, config) =>
    withCliPlatform(config, async (platform) => {
      const { createTenantAudited } = await import('../shared/tenant-admin/audited-tenant-changes.js');
      return createTenantAudited(await tenantDeps(platform), platform.orm.em.fork(), CLI_ACTOR, {
        name: required(options, 'name'),
        slug: required(options, 'slug'),
        authentication: authentication(options) ?? null,
        configuration: configuration(options) ?? {},
      });
    }),
  'tenant list': (_options, config) =>
    withCliPlatform(config, async ({ orm }) => {
      const { listTenants } = await import('../shared/tenants/tenant-lookup.js');
      return listTenants(orm.em.fork());
    }),
  'tenant show': (options, config) =>
    withCliPlatform(config, async ({ orm }) => {
      const [{ findTenantBySlug }, { tenantView }] = await Promise.all([
        import('../shared/tenants/tenant-lookup.js'),
        import('../shared/tenants/tenant-view.js'),
      ]);
      return tenantView(await findTenantBySlug(orm.em.fork(), required(options, 'tenant')));
    }),
  'tenant update': (options, config) => {
    const changes = {
      ...(optional(options, 'name') === undefined ? {} : { name: optional(options, 'name') }),
      ...(authentication(options) === undefined ? {} : { authentication: authentication(options) }),
      ...(configuration(options) === undefined ? {} : { configuration: configuration(options) }),
    };
    if (!Object.keys(changes).length)
      throw new UsageError('tenant update needs --name, --configuration or the --auth-… options');
    return withCliPlatform(config, async (platform) => {
      const { changeTenant } = await import('../shared/tenant-admin/audited-tenant-changes.js');
      return changeTenant(await tenantDeps(platform), platform.orm.em.fork(), CLI_ACTOR, slugOf(options), changes);
    });
  },
  'tenant disable': (options, config) => setDisabled(options, config, true),
  'tenant enable': (options, config) => setDisabled(options, config, false),
  'tenant rotate-key': (options, config) =>
    withCliPlatform(config, async (platform) => {
      const { rotateApiKeyAudited } = await import('../shared/tenant-admin/audited-tenant-changes.js');
      return rotateApiKeyAudited(
        await tenantDeps(platform),
        platform.orm.em.fork(),
        CLI_ACTOR,
        required(options, 'tenant'),
      );
    }),
  'points adjust': pointsAdjustCommand,
  'token admin': (options, config) => {
    const scopes = required(options, 'scope').split(/\s+/).filter(Boolean);
    const unknown = scopes.filter((scope) => !isScope(scope));
    if (unknown.length)
      throw new UsageError(`Unknown scope ${unknown.join(', ')}; the scopes are: ${SCOPES.join(' ')}`);
    const ttl = lifetime(optional(options, 'ttl') ?? '1h', config.adminTokenMaxTtlSeconds);
    return withCliPlatform(config, async ({ orm }) => {
      const [{ findTenantBySlug }, { mintAdminToken }] = await Promise.all([
        import('../shared/tenants/tenant-lookup.js'),
        import('../shared/platform/auth/admin-token.js'),
      ]);
      const tenant = await findTenantBySlug(orm.em.fork(), required(options, 'tenant'));
      const token = await mintAdminToken(config.platformTokenSecret, {
        tenantId: tenant.id,
        scopes,
        subject: optional(options, 'subject') ?? 'cli',
        ttl,
      });
      return { token };
    });
  },
};

export async function runCommand(positionals: string[], options: Options): Promise<unknown> {
  const name = positionals.join(' ');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${name}"`);
  return command(options, loadConfig());
}

/**
 * The one command that creates and migrates the database (docs/operations.md#cli); every other
 * one refuses a database that is missing or behind, in one line.
 */
async function migrateCommand(_options: Options, config: Config): Promise<unknown> {
  const [{ checkDependencies, prepareDatabase }, { createDatabase }, { migrate }] = await Promise.all([
    import('../shared/platform/db/dependency-check.js'),
    import('../shared/database.js'),
    import('../shared/platform/db/orm.js'),
  ]);
  await checkDependencies(config.databaseUrl, config.redisUrl);
  await prepareDatabase(config.databaseUrl);
  const orm = await createDatabase(config.databaseUrl, cliLogger(), { platformSecret: config.platformTokenSecret });
  try {
    return { applied: await migrate(orm) };
  } finally {
    await orm.close();
  }
}

/** How often `points adjust` reads its job's progress. */
const PROGRESS_EVERY_MS = 500;

/**
 * `points adjust --tenant SLUG --file F` (docs/points.md#bulk-adjustments): the file's lines
 * (CSV with the header `member,points,reason` when its name ends in .csv or it begins with that
 * header, else JSON `{lines: […]}`), checked as POST /v1/points-adjustments/bulk checks them,
 * stored as one job and queued for the `points-adjustments` workers; its progress on stderr until
 * it is done, then the job as JSON. A job that failed exits 1.
 */
async function pointsAdjustCommand(options: Options, config: Config): Promise<unknown> {
  const file = required(options, 'file');
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CommandError(`cannot read --file ${file}: ${(error as Error).message}`);
  }
  const lines = await adjustmentLines(file, text);
  return withCliPlatform(config, async ({ orm, logger, audit }) => {
    const [{ findTenantBySlug }, jobs, queue] = await Promise.all([
      import('../shared/tenants/tenant-lookup.js'),
      import('../shared/jobs/bulk-adjustments.js'),
      openQueue(config, logger, 'points-adjustments'),
    ]);
    try {
      const tenant = await findTenantBySlug(orm.em.fork(), required(options, 'tenant'));
      const audited = await audit();
      const jobId = await jobs.createAdjustmentJob(
        { ...audited, queues: { ...audited.queues, ...queue.queues } },
        orm.em.fork(),
        tenant.id,
        CLI_ACTOR,
        lines,
      );
      let shown = '';
      for (;;) {
        const job = await jobs.findJob(orm.em.getKnex(), tenant.id, jobId);
        const progress = `job ${jobId}: ${job.status}, ${job.done + job.failed} of ${job.total} lines handled (${job.done} applied, ${job.failed} failed)`;
        if (progress !== shown) process.stderr.write(`${progress}\n`);
        shown = progress;
        if (job.status === 'completed') return job;
        if (job.status === 'failed')
          throw new CommandError(
            `job ${jobId} failed after ${job.done + job.failed} of ${job.total} lines; the lines handled stay applied`,
          );
        await new Promise((resolve) => setTimeout(resolve, PROGRESS_EVERY_MS));
      }
    } finally {
      await queue.close();
    }
  });
}

/** The file's lines, refused in one line (naming the faulty line) before anything is stored. */
async function adjustmentLines(file: string, text: string) {
  const [{ BulkAdjustmentBody, CSV_HEADER, parseAdjustmentCsv }, { compile, toValidationIssues }] = await Promise.all([
    import('../shared/jobs/adjustment-lines.js'),
    import('../shared/platform/validation/ajv.js'),
  ]);
  const csv = file.toLowerCase().endsWith('.csv') || text.replace(/^\uFEFF/, '').startsWith(CSV_HEADER);
  let body: unknown;
  try {
    body = csv ? parseAdjustmentCsv(text) : JSON.parse(text);
  } catch (error) {
    throw new CommandError(`--file ${file}: ${(error as Error).message}`);
  }
  const valid = compile<{ lines: { member: string; points: number; reason: string }[] }>(BulkAdjustmentBody);
  if (!valid(body)) {
    const issues = toValidationIssues(valid.errors, body).flatMap((issue) =>
      Object.values(issue.constraints).map((message) => `${issue.property}: ${message}`),
    );
    throw new CommandError(`--file ${file} is not a bulk adjustment: ${issues.slice(0, 5).join('; ')}`);
  }
  return body.lines;
}

async function setDisabled(options: Options, config: Config, disabled: boolean): Promise<unknown> {
  return withCliPlatform(config, async (platform) => {
    const { changeTenantDisabled } = await import('../shared/tenant-admin/audited-tenant-changes.js');
    return changeTenantDisabled(
      await tenantDeps(platform),
      platform.orm.em.fork(),
      CLI_ACTOR,
      slugOf(options),
      disabled,
    );
  });
}

async function tenantDeps(platform: CliPlatform) {
  return { ...(await platform.audit()), payloadSchemas: platform.payloadSchemas, config: platform.config };
}

function slugOf(options: Options): { slug: string } {
  return { slug: required(options, 'tenant') };
}

/**
 * `--ttl`: a whole number and a unit, at most ADMIN_TOKEN_MAX_TTL (docs/operations.md#cli), so a
 * token that leaks stops working within a day unless the operator chose otherwise.
 */
function lifetime(raw: string, maxSeconds: number): string {
  const seconds = parseLifetime(raw);
  if (seconds === undefined)
    throw new UsageError(`--ttl must be a whole number and a unit (s, m, h or d), for example --ttl 30m; not "${raw}"`);
  if (seconds > maxSeconds)
    throw new UsageError(
      `--ttl ${raw} is longer than the ${maxSeconds} s that ADMIN_TOKEN_MAX_TTL allows; for example --ttl 1h`,
    );
  return raw;
}

/** The `--auth-…` options as the tenant's authentication; undefined when none is given. */
function authentication(options: Options): TenantAuthentication | undefined {
  const algorithm = optional(options, 'auth-algorithm');
  if (!algorithm) return undefined;
  const issuer = required(options, 'auth-issuer');
  // docs/operations.md#cli: the shared key is the raw secret (UTF-8), never decoded.
  // An option the algorithm does not use is a mistake to say, not a setting to drop (docs/tenant.md#authentication).
  const unused = (name: string) => {
    if (optional(options, name) !== undefined) throw new UsageError(`--${name} is not used with ${algorithm}`);
  };
  if (algorithm === 'HS256') {
    unused('auth-jwks-url');
    return { algorithm, issuer, sharedKey: required(options, 'auth-shared-key') };
  }
  if (algorithm === 'RS256') {
    unused('auth-shared-key');
    return { algorithm, issuer, jwksUrl: required(options, 'auth-jwks-url') };
  }
  throw new UsageError(`--auth-algorithm must be HS256 or RS256, not "${algorithm}"`);
}

/** `--configuration` as an object; undefined when not given. Its keys are checked by the service. */
function configuration(options: Options): Record<string, unknown> | undefined {
  const raw = optional(options, 'configuration');
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new UsageError(`--configuration must be a JSON object, for example '{"allowDuplicateContacts": true}'`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--configuration must be a JSON object, for example '{"allowDuplicateContacts": true}'`);
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
