import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { inject } from 'vitest';
import type { DestinationStream } from 'pino';
import { createApp } from '../../api/app.js';
import type { App } from '../../api/app-env.js';
import type { Clock } from '../../shared/platform/async/clock.js';
import { mintAdminToken } from '../../shared/platform/auth/admin-token.js';
import type { Scope } from '../../shared/platform/auth/scopes.js';
import { loadConfig, type Config } from '../../shared/platform/config/config.js';
import { closeContext, createContext, type AppContext } from '../../shared/context.js';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import { createLogger } from '../../shared/platform/logging/logger.js';
import { createTenant, type NewTenant } from '../../shared/tenant-admin/tenant-service.js';
import { deleteKeysWithPrefix } from './redis-keys.js';
import { databaseUrl, TEST_REDIS_URL } from './test-database.js';

export const USER_TOKEN_ISSUER = 'https://id.example.test';

export interface TestTenant {
  id: string;
  slug: string;
  key: string;
  sharedKey: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is: for bodies that must not be JSON-encoded. */
  rawBody?: string;
  apiKey?: string | null;
  token?: string;
  headers?: Record<string, string>;
}

/**
 * A fresh world for one test file: its own database copied from the migrated template, its own
 * Redis key prefix, its own platform secret, and the real app on top of them.
 */
export interface Harness {
  context: AppContext;
  app: App;
  config: Config;
  createTenant(input?: Partial<NewTenant>): Promise<TestTenant>;
  adminToken(tenant: TestTenant, scopes: Scope[], subject?: string): Promise<string>;
  userToken(tenant: TestTenant, sub: string): Promise<string>;
  request(tenant: TestTenant | null, method: string, path: string, options?: RequestOptions): Promise<Response>;
  close(): Promise<void>;
}

/**
 * `databasePort`: the service reaches the test's database through this port of loopback (a
 * test's proxy, tcp-proxy.ts), while the harness creates and drops it directly. `clock`: the
 * time its bounded waits read (manual-clock.ts), the system's by default.
 */
export async function createHarness(
  overrides: Partial<Config> & { databasePort?: number; clock?: Clock } = {},
  logDestination?: DestinationStream,
): Promise<Harness> {
  const { databasePort, clock, ...configOverrides } = overrides;
  const id = randomBytes(6).toString('hex');
  const url = databaseUrl(`tally_test_${id}`);
  await ensureDatabase(url, inject('templateDatabase'));
  const serviceUrl = new URL(url);
  if (databasePort !== undefined) Object.assign(serviceUrl, { hostname: '127.0.0.1', port: String(databasePort) });
  const config: Config = {
    ...loadConfig({ PLATFORM_TOKEN_SECRET: randomBytes(32).toString('base64url') }),
    databaseUrl: serviceUrl.toString(),
    redisUrl: TEST_REDIS_URL,
    redisPrefix: `test-${id}`,
    logLevel: 'silent',
    cacheTtlMs: 0,
    memberCacheTtlMs: 0,
    ...configOverrides,
  };
  const logger = logDestination
    ? createLogger('debug', logDestination)
    : createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const context = await createContext(config, logger, clock);
  const app = createApp(context);
  let tenantCount = 0;

  const harness: Harness = {
    context,
    app,
    config,
    async createTenant(input = {}) {
      tenantCount += 1;
      const sharedKey = randomBytes(24).toString('base64url');
      const tenant = await createTenant(
        context.orm.em.fork(),
        context.payloadSchemas,
        {
          name: `Tenant ${tenantCount}`,
          slug: `tenant-${id}-${tenantCount}`,
          authentication: { algorithm: 'HS256', issuer: USER_TOKEN_ISSUER, sharedKey },
          ...input,
        },
        config.fetchAllowPrivateAddresses,
      );
      return { id: tenant.id, slug: tenant.slug, key: tenant.key, sharedKey };
    },
    adminToken(tenant, scopes, subject = 'test-admin') {
      return mintAdminToken(config.platformTokenSecret, { tenantId: tenant.id, scopes, subject, ttl: '10m' });
    },
    userToken(tenant, sub) {
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(USER_TOKEN_ISSUER)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode(tenant.sharedKey));
    },
    request(tenant, method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const apiKey = options.apiKey === undefined ? tenant?.key : options.apiKey;
      if (apiKey) headers['X-Api-Key'] = apiKey;
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['Content-Type'] ??= 'application/json';
      }
      return Promise.resolve(app.request(path, { method, headers, ...(body === undefined ? {} : { body }) }));
    },
    async close() {
      await closeContext(context);
      await dropDatabase(url);
      await deleteKeysWithPrefix(TEST_REDIS_URL, config.redisPrefix);
    },
  };
  return harness;
}

/** A member registered through the API (POST /v1/users, an `admin:users` token), as it answered. */
export async function registerMember(
  harness: Harness,
  tenant: TestTenant,
  adminToken: string,
  authIdentifier: string,
): Promise<Json> {
  const profile = { familyName: 'D', givenName: authIdentifier, emailAddress: `${authIdentifier}@example.com` };
  const response = await harness.request(tenant, 'POST', '/v1/users', {
    token: adminToken,
    body: { isRestricted: false, authIdentifier, profile },
  });
  if (response.status !== 201)
    throw new Error(`registering ${authIdentifier} answered ${response.status}: ${await response.text()}`);
  return dataOf(response);
}

/** The `data` of a success envelope, typed for the test. */
export async function dataOf<T = Record<string, unknown>>(response: Response): Promise<T> {
  const body = (await response.json()) as { data: T };
  return body.data;
}

/** Response JSON as tests read it: they probe arbitrary shapes, so it is loosely typed on purpose. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function jsonOf(response: Response): Promise<Json> {
  return response.json();
}

/** The first row of a query against a harness's database; fails the test when there is none. */
export async function queryOne(harness: Harness, sql: string, params: unknown[] = []): Promise<Json> {
  const [row] = await harness.context.orm.em.fork().getConnection().execute(sql, params);
  if (!row) throw new Error(`no row for: ${sql}`);
  return row;
}
