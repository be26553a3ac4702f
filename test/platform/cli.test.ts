import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerify } from 'jose';
import { PLATFORM_TOKEN_ISSUER } from '../../shared/platform/auth/admin-token.js';
import { Queue } from 'bullmq';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import pg from 'pg';
import { createDatabase } from '../../shared/database.js';
import { KeyedHash } from '../../shared/platform/secrets/keyed-hash.js';
import { memberFingerprint } from '../../shared/users/member-fingerprint.js';
import { queuePrefix } from '../../shared/platform/queues/queue-factory.js';
import { createRedis } from '../../shared/platform/redis/redis.js';
import { TenantDirectory } from '../../shared/tenants/tenant-directory.js';
import type { AuditJob } from '../../shared/audit/audit-job.js';
import { runEntry } from '../support/run-process.js';
import { databaseUrl, TEST_REDIS_URL } from '../support/test-database.js';
import { deleteKeysWithPrefix } from '../support/redis-keys.js';

const url = databaseUrl(`tally_test_cli_${randomBytes(4).toString('hex')}`);
const secret = randomBytes(32).toString('base64url');
const env = {
  DATABASE_URL: url,
  REDIS_URL: TEST_REDIS_URL,
  PLATFORM_TOKEN_SECRET: secret,
  REDIS_PREFIX: `test-cli-${randomBytes(4).toString('hex')}`,
};
const tally = (...args: string[]) => runEntry('cli/tally.ts', args, env);
/** The first migration that rewrites stored values under a key derived from the platform secret. */
const FINGERPRINT_MIGRATION = 'Migration20261128091806';

/** docs/operations.md#cli: the CLI "prints JSON on stdout and nothing else there". */
async function json(...args: string[]) {
  const result = await tally(...args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(() => ensureDatabase(url, inject('templateDatabase')));
afterAll(async () => {
  await dropDatabase(url);
  await deleteKeysWithPrefix(TEST_REDIS_URL, env.REDIS_PREFIX);
});

async function databaseExists(databaseUrl: string): Promise<boolean> {
  const server = new URL(databaseUrl);
  const name = server.pathname.slice(1);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    return Boolean((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount);
  } finally {
    await client.end();
  }
}

/** The audit jobs the CLI's changes queued: it runs no worker, so they wait there. */
async function queuedAuditJobs(): Promise<AuditJob[]> {
  const connection = createRedis(TEST_REDIS_URL, 'test-cli');
  const queued = new Queue<AuditJob>('audit', { connection, prefix: queuePrefix(env.REDIS_PREFIX, 'audit') });
  try {
    return (await queued.getJobs(['waiting', 'delayed'])).map((job) => job.data);
  } finally {
    await queued.close();
    await connection.quit();
  }
}

// Each CLI process starts tsx afresh: seconds alone, several times that beside a busy suite.
describe('the tally CLI', { timeout: 90_000 }, () => {
  it('tally migrate prints what it applied as JSON', async () => {
    expect(await json('migrate')).toEqual({ applied: [] });
  });

  it('tenant create prints the tenant with its key at the top level; list shows only the prefix', async () => {
    const tenant = await json(
      'tenant',
      'create',
      '--name',
      'Acme Coffee',
      '--slug',
      'acme',
      '--auth-algorithm',
      'HS256',
      '--auth-issuer',
      'https://id.acme.test',
      '--auth-shared-key',
      'raw secret',
      '--configuration',
      '{"review":{"maxAgeDays":30}}',
    );
    expect(tenant).toMatchObject({
      id: expect.any(String),
      name: 'Acme Coffee',
      slug: 'acme',
      key: expect.stringMatching(/^tly_/),
      keyPrefix: expect.stringMatching(/^tly_/),
      authentication: { algorithm: 'HS256', issuer: 'https://id.acme.test' },
      configuration: { review: { maxAgeDays: 30 } },
    });
    expect(tenant.key.startsWith(tenant.keyPrefix)).toBe(true);
    expect(JSON.stringify(tenant)).not.toContain('raw secret');

    const list = await json('tenant', 'list');
    expect(list.map((entry: { slug: string }) => entry.slug)).toContain('acme');
    expect(JSON.stringify(list)).not.toContain(tenant.key);
  });

  it('tenant rotate-key prints a new key; the old one stops naming the tenant, and the rotation is audited', async () => {
    const created = await json('tenant', 'create', '--name', 'Rotating', '--slug', 'rotating');
    const { key, ...createdView } = created;
    const rotated = await json('tenant', 'rotate-key', '--tenant', 'rotating');
    expect(rotated.key).toMatch(/^tly_/);
    expect(rotated.keyPrefix).not.toBe(created.keyPrefix);
    const orm = await createDatabase(url);
    try {
      const tenants = new TenantDirectory(orm, 0);
      expect(await tenants.findByApiKey(created.key)).toBeUndefined();
      expect((await tenants.findByApiKey(rotated.key))?.slug).toBe('rotating');
      // The CLI runs no worker: the audit job waits on the queue (or, with Redis away, the entry is written directly).
      expect(await queuedAuditJobs()).toContainEqual(
        expect.objectContaining({
          action: 'tenant.api_key_rotated',
          tenantId: created.id,
          after: { keyPrefix: rotated.keyPrefix },
        }),
      );
      // The creation is audited too, with the public view: never the key.
      const creation = (await queuedAuditJobs()).find(
        (job) => job.action === 'tenant.created' && job.tenantId === created.id,
      );
      expect(creation).toMatchObject({ actor: { subject: 'cli' }, before: null, after: createdView });
      expect(JSON.stringify(creation)).not.toContain(key);
    } finally {
      await orm.close();
    }
  });

  it('token admin prints a token bound to the tenant with its scopes', async () => {
    const [tenant] = (await json('tenant', 'list')).filter((entry: { slug: string }) => entry.slug === 'acme');
    const { token } = await json(
      'token',
      'admin',
      '--tenant',
      'acme',
      '--scope',
      'admin:event_types read:users',
      '--ttl',
      '2h',
      '--subject',
      'ops@acme.test',
    );
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      issuer: PLATFORM_TOKEN_ISSUER,
      audience: tenant.id,
    });
    expect(payload).toMatchObject({ sub: 'ops@acme.test', scope: 'admin:event_types read:users' });
    expect(payload.exp! - payload.iat!).toBe(7200);
  });

  it('tally tenant alone lists its subcommands on stderr', async () => {
    const result = await tally('tenant');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    for (const subcommand of ['create', 'list', 'show', 'update', 'disable', 'enable', 'rotate-key'])
      expect(result.stderr).toContain(`tally tenant ${subcommand}`);
    expect(result.stderr).not.toContain('tally token admin');
  });

  it('tenant show prints one tenant without its shared key', async () => {
    const shown = await json('tenant', 'show', '--tenant', 'acme');
    expect(shown).toMatchObject({
      slug: 'acme',
      authentication: { algorithm: 'HS256', issuer: 'https://id.acme.test' },
      disabledAt: null,
    });
    expect(JSON.stringify(shown)).not.toContain('raw secret');
    expect(shown).not.toHaveProperty('key');
  });

  it('tenant update merges the configuration and renames, checked by the API schema and audited', async () => {
    await json('tenant', 'create', '--name', 'Updated', '--slug', 'updated', '--configuration', '{"timezone":"UTC"}');
    const updated = await json(
      'tenant',
      'update',
      '--tenant',
      'updated',
      '--name',
      'Updated Twice',
      '--configuration',
      '{"review":{"minConfidence":0.9},"timezone":null}',
    );
    expect(updated).toMatchObject({ name: 'Updated Twice', configuration: { review: { minConfidence: 0.9 } } });
    expect(updated.configuration).not.toHaveProperty('timezone');
    expect(await queuedAuditJobs()).toContainEqual(
      expect.objectContaining({
        action: 'tenant.updated',
        tenantId: updated.id,
        actor: { subject: 'cli', scopes: [] },
        before: expect.objectContaining({ name: 'Updated', configuration: { timezone: 'UTC' } }),
        after: expect.objectContaining({ name: 'Updated Twice' }),
      }),
    );
  });

  it('tenant disable sets disabledAt, tenant enable clears it; both are audited', async () => {
    const created = await json('tenant', 'create', '--name', 'Paused', '--slug', 'paused');
    expect((await json('tenant', 'disable', '--tenant', 'paused')).disabledAt).toEqual(expect.any(String));
    const orm = await createDatabase(url);
    try {
      // The API refuses the key of a tenant found disabled (test/tenant/tenant-api.test.ts).
      expect((await new TenantDirectory(orm, 0).findByApiKey(created.key))?.disabledAt).toBeInstanceOf(Date);
    } finally {
      await orm.close();
    }
    expect((await json('tenant', 'enable', '--tenant', 'paused')).disabledAt).toBeNull();
    const actions = (await queuedAuditJobs()).filter((job) => job.tenantId === created.id).map((job) => job.action);
    expect(actions).toEqual(expect.arrayContaining(['tenant.disabled', 'tenant.enabled']));
  });

  it('token admin takes a --ttl up to ADMIN_TOKEN_MAX_TTL', async () => {
    const result = await runEntry(
      'cli/tally.ts',
      ['token', 'admin', '--tenant', 'acme', '--scope', 'admin:users', '--ttl', '48h'],
      {
        ...env,
        ADMIN_TOKEN_MAX_TTL: '72h',
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const { payload } = await jwtVerify(JSON.parse(result.stdout).token, new TextEncoder().encode(secret));
    expect(payload.exp! - payload.iat!).toBe(48 * 3600);
  });

  it('a command other than migrate refuses a database that does not exist, in one line, and creates nothing', async () => {
    const missing = databaseUrl(`tally_test_cli_missing_${randomBytes(4).toString('hex')}`);
    const result = await runEntry('cli/tally.ts', ['tenant', 'list'], { ...env, DATABASE_URL: missing });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^tally: the database .* does not exist: run tally migrate\n$/);
    expect(await databaseExists(missing)).toBe(false);
  });

  it('a command other than migrate refuses an unmigrated database; tally migrate migrates it', async () => {
    const empty = databaseUrl(`tally_test_cli_empty_${randomBytes(4).toString('hex')}`);
    await ensureDatabase(empty);
    try {
      const refused = await runEntry('cli/tally.ts', ['tenant', 'list'], { ...env, DATABASE_URL: empty });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(
        /^tally: the database .* is not migrated \(\d+ pending migration\(s\).*\): run tally migrate\n$/,
      );
      const migrated = await runEntry('cli/tally.ts', ['migrate'], { ...env, DATABASE_URL: empty });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(JSON.parse(migrated.stdout).applied.length).toBeGreaterThan(0);
      const listed = await runEntry('cli/tally.ts', ['tenant', 'list'], { ...env, DATABASE_URL: empty });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([]);
    } finally {
      await dropDatabase(empty);
    }
  });

  // docs/operations.md#the-platform-secret: "migrations that rewrite stored values under a key are given it too
  // (`npm start`, `tally migrate`)".
  it('tally migrate gives the platform secret to the migrations that rewrite under a key: a member registered before fingerprints gets one', async () => {
    const behind = databaseUrl(`tally_test_cli_behind_${randomBytes(4).toString('hex')}`);
    await ensureDatabase(behind, inject('templateDatabase'));
    const [tenantId, memberId] = [randomUUID(), randomUUID()];
    try {
      const orm = await createDatabase(behind);
      try {
        // Down to it, inclusive: the database as it was before members had fingerprints.
        await orm.getMigrator().down({ to: FINGERPRINT_MIGRATION });
        const connection = orm.em.getConnection();
        await connection.execute(
          `insert into tenant (id, name, slug, api_key_prefix, api_key_hash, configuration, created_at, updated_at)
             values (?, 'Before', 'before', 'tk_before', 'not a key', '{}', now(), now())`,
          [tenantId],
        );
        await connection.execute(
          `insert into member (id, tenant_id, account_number, auth_identifier, is_restricted, profile, linked_venues, created_at, updated_at)
             values (?, ?, 1, 'ada', false, '{}', '[]', now(), now())`,
          [memberId, tenantId],
        );
      } finally {
        await orm.close();
      }

      const migrated = await runEntry('cli/tally.ts', ['migrate'], { ...env, DATABASE_URL: behind });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(JSON.parse(migrated.stdout).applied).toContain(FINGERPRINT_MIGRATION);
      const client = new pg.Client({ connectionString: behind });
      await client.connect();
      try {
        const { rows } = await client.query('select fingerprint from member where id = $1', [memberId]);
        expect(rows).toEqual([
          { fingerprint: memberFingerprint(new KeyedHash(secret, 'member-fingerprint'), tenantId, memberId) },
        ]);
      } finally {
        await client.end();
      }
    } finally {
      await dropDatabase(behind);
    }
  });

  // One process per test, so no test's time is the sum of the start-ups.
  it.each([
    ['a scope that does not exist', ['token', 'admin', '--tenant', 'acme', '--scope', 'admin:everything'], /scope/],
    ['a tenant that does not exist', ['token', 'admin', '--tenant', 'nobody', '--scope', 'admin:users'], /nobody/],
    ['a slug already taken', ['tenant', 'create', '--name', 'Dup', '--slug', 'acme'], /already exists/],
    [
      'RS256 without its JWKS address',
      ['tenant', 'create', '--name', 'X', '--slug', 'x', '--auth-algorithm', 'RS256', '--auth-issuer', 'i'],
      /--auth-jwks-url is required/,
    ],
    [
      'a JWKS address with HS256',
      [
        'tenant',
        'update',
        '--tenant',
        'acme',
        '--auth-algorithm',
        'HS256',
        '--auth-issuer',
        'i',
        '--auth-shared-key',
        'k',
        '--auth-jwks-url',
        'https://id.example/jwks',
      ],
      /--auth-jwks-url/,
    ],
    ['a command that does not exist', ['tenant', 'explode'], /Unknown command "tenant explode"/],
    [
      'a configuration value out of range',
      ['tenant', 'update', '--tenant', 'acme', '--configuration', '{"review":{"minConfidence":5}}'],
      /configuration\.review\.minConfidence must be <= 1/,
    ],
    [
      'a malformed rate limit',
      ['tenant', 'update', '--tenant', 'acme', '--configuration', '{"rateLimit":"fast"}'],
      /configuration\.rateLimit must be object/,
    ],
    [
      'a configuration key no feature reads',
      ['tenant', 'create', '--name', 'T', '--slug', 't', '--configuration', '{"tier":[]}'],
      /configuration\.tier is not an accepted field/,
    ],
    [
      'a --ttl over the maximum',
      ['token', 'admin', '--tenant', 'acme', '--scope', 'admin:users', '--ttl', '48h'],
      /longer than .*ADMIN_TOKEN_MAX_TTL.*for example --ttl 1h/,
    ],
    [
      'a --ttl that is no lifetime',
      ['token', 'admin', '--tenant', 'acme', '--scope', 'admin:users', '--ttl', 'soon'],
      /for example --ttl 30m; not "soon"/,
    ],
  ])('mistakes exit 1 with one line on stderr and nothing on stdout: %s', async (_mistake, args, says) => {
    const result = await tally(...args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const [first] = result.stderr.split('\n');
    expect(first).toMatch(/^tally: /);
    expect(first).toMatch(says);
  });
});
