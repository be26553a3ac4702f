import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerify } from 'jose';
import { PLATFORM_TOKEN_ISSUER } from '../../shared/platform/auth/admin-token.js';
import { Queue } from 'bullmq';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import { createDatabase } from '../../shared/database.js';
import { queuePrefix } from '../../shared/platform/queues/queue-factory.js';
import { createRedis } from '../../shared/platform/redis/redis.js';
import { TenantDirectory } from '../../shared/tenants/tenant-directory.js';
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
    const rotated = await json('tenant', 'rotate-key', '--tenant', 'rotating');
    expect(rotated.key).toMatch(/^tly_/);
    expect(rotated.keyPrefix).not.toBe(created.keyPrefix);
    const orm = await createDatabase(url);
    try {
      const tenants = new TenantDirectory(orm, 0);
      expect(await tenants.findByApiKey(created.key)).toBeUndefined();
      expect((await tenants.findByApiKey(rotated.key))?.slug).toBe('rotating');
      // The CLI runs no worker: the audit job waits on the queue (or, with Redis away, the entry is written directly).
      const connection = createRedis(TEST_REDIS_URL, 'test-cli');
      const queued = new Queue('audit', { connection, prefix: queuePrefix(env.REDIS_PREFIX, 'audit') });
      const jobs = await queued.getJobs(['waiting', 'delayed']);
      await queued.close();
      await connection.quit();
      expect(jobs.map((job) => job.data)).toContainEqual(
        expect.objectContaining({
          action: 'tenant.api_key_rotated',
          tenantId: created.id,
          after: { keyPrefix: rotated.keyPrefix },
        }),
      );
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

  // One process per test, so no test's time is the sum of five start-ups.
  it.each([
    ['a scope that does not exist', ['token', 'admin', '--tenant', 'acme', '--scope', 'admin:everything']],
    ['a tenant that does not exist', ['token', 'admin', '--tenant', 'nobody', '--scope', 'admin:users']],
    ['a slug already taken', ['tenant', 'create', '--name', 'Dup', '--slug', 'acme']],
    [
      'RS256 without its JWKS address',
      ['tenant', 'create', '--name', 'X', '--slug', 'x', '--auth-algorithm', 'RS256', '--auth-issuer', 'i'],
    ],
    ['a command that does not exist', ['tenant', 'explode']],
  ])('mistakes exit 1 with one line on stderr and nothing on stdout: %s', async (_mistake, args) => {
    const result = await tally(...args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^tally: /);
  });
});
