import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { createApp } from '../../api/app.js';
import type { App } from '../../api/app-env.js';
import { mintAdminToken } from '../../shared/platform/auth/admin-token.js';
import type { Scope } from '../../shared/platform/auth/scopes.js';
import { loadConfig, type Config } from '../../shared/platform/config/config.js';
import { closeContext, createContext, type AppContext } from '../../shared/context.js';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import { migrate } from '../../shared/platform/db/orm.js';
import { createLogger } from '../../shared/platform/logging/logger.js';
import { createTenant } from '../../shared/tenant-admin/tenant-service.js';
import { startPrivateRedis } from '../support/private-redis.js';

export const EVENT_TYPE = 'PURCHASE_MADE';
const USER_TOKEN_ISSUER = 'https://id.bench.test';
/** The ingest server's bare route: the ceiling POST /v1/events is measured against. */
export const CEILING_PATH = '/ceiling';

/**
 * What a benchmark runs against: its own database and Redis prefix, seeded through the real API
 * as a tenant would seed it — a point-of-sale tenant (rate limit raised, as a fleet's would be), a
 * private transaction event type with a payload schema, a points reactor and its members.
 */
export interface BenchWorld {
  config: Config;
  context: AppContext;
  /** The environment of a child process of the stack (API or worker) on this world. */
  env: Record<string, string>;
  apiKey: string;
  eventSecret: string;
  /** An admin token for the receipts benchmarks (admin:receipts). */
  receiptsAdmin: string;
  eventTypeId: string;
  tenantId: string;
  /** authIdentifier and id of every member. */
  members: { authIdentifier: string; id: string }[];
  /** A member's own token (HS256, the tenant's shared key), as a shopper's app sends it. */
  userToken(authIdentifier: string): Promise<string>;
  /** An admin token of the bench tenant with these scopes. */
  adminToken(scopes: Scope[]): Promise<string>;
  /**
   * What autovacuum does on a production server, done between rounds, outside the measured time:
   * this machine's PostgreSQL runs with autovacuum off, and without statistics the planner chose
   * scans that read every member or claim of the tenant, so the figures got worse with every round.
   */
  upkeep(): Promise<void>;
  close(): Promise<void>;
}

const PURCHASE_SCHEMA = {
  type: 'object',
  required: ['transactionId', 'total', 'locationId', 'lineItems'],
  properties: {
    transactionId: { type: 'string', maxLength: 64 },
    total: { type: 'number', minimum: 0 },
    locationId: { type: 'string' },
    cashierId: { type: 'string' },
    lineItems: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        required: ['sku', 'quantity', 'unitPrice'],
        properties: { sku: { type: 'string' }, quantity: { type: 'integer' }, unitPrice: { type: 'number' } },
      },
    },
  },
};

export async function createBenchWorld(memberCount: number, logLevel: string): Promise<BenchWorld> {
  const id = `${process.pid}`;
  const base = loadConfig();
  const databaseUrl = new URL(base.databaseUrl);
  databaseUrl.pathname = `/tally_bench_${id}`;
  // A Redis of the benchmark's own with the shipped configuration (AOF fsynced every second,
  // noeviction: docs/operations.md#durability), so the figures hold for a real deployment: the
  // machine's Redis may run without persistence, which would flatter every queue write.
  const redis = await startPrivateRedis({ appendfsync: 'everysec' });
  const env = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redis.url,
    REDIS_PREFIX: `bench-${id}`,
    PLATFORM_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: logLevel,
    WORKER_PORT: '0',
    // The OCR benchmark serves its receipt images from this machine.
    FETCH_ALLOW_PRIVATE_ADDRESSES: 'true',
  };
  const config = loadConfig({ ...process.env, ...env, LOG_LEVEL: 'silent' });
  await dropDatabase(config.databaseUrl);
  await ensureDatabase(config.databaseUrl);
  const context = await createContext(config, createLogger('silent'));
  await migrate(context.orm);
  const app = createApp(context);

  const sharedKey = randomBytes(32).toString('base64url');
  const tenant = await createTenant(context.orm.em.fork(), context.payloadSchemas, {
    name: 'Bench Retail',
    slug: `bench-${id}`,
    authentication: { algorithm: 'HS256', issuer: USER_TOKEN_ISSUER, sharedKey },
    // The shipped receipt images are dated November 2026: a wide age limit keeps them acceptable.
    configuration: { rateLimit: { perSecond: 100_000, burst: 1_000_000 }, review: { maxAgeDays: 100_000 } },
  });
  const admin = await mintAdminToken(config.platformTokenSecret, {
    tenantId: tenant.id,
    scopes: ['admin:event_types', 'admin:users', 'admin:reactors'],
    subject: 'bench',
    ttl: '1h',
  });
  const call = seedCaller(app, tenant.key, admin);

  const eventType = await call('/v1/event_types', {
    name: EVENT_TYPE,
    description: 'A purchase at the till',
    isPrivate: true,
    schema: PURCHASE_SCHEMA,
  });
  await call('/v1/reactors', {
    name: 'One point per unit of currency',
    eventType: EVENT_TYPE,
    reactions: [
      { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'PATH', value: '$.payload.total' }] } },
    ],
  });
  const members: BenchWorld['members'] = [];
  for (let i = 0; i < memberCount; i++) {
    const authIdentifier = `member-${i}`;
    const user = await call('/v1/users', {
      isRestricted: false,
      authIdentifier,
      profile: { givenName: 'M', familyName: `${i}`, emailAddress: `member-${i}@example.test` },
    });
    members.push({ authIdentifier, id: user.id as string });
  }

  const upkeep = async () => {
    await context.orm.em.getConnection().execute('vacuum analyze');
  };
  await upkeep();

  return {
    config,
    context,
    env,
    apiKey: tenant.key,
    eventSecret: eventType.secret as string,
    receiptsAdmin: await mintAdminToken(config.platformTokenSecret, {
      tenantId: tenant.id,
      scopes: ['admin:receipts'],
      subject: 'bench',
      ttl: '2h',
    }),
    eventTypeId: eventType.id as string,
    tenantId: tenant.id,
    members,
    userToken: (authIdentifier) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(USER_TOKEN_ISSUER)
        .setSubject(authIdentifier)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(new TextEncoder().encode(sharedKey)),
    adminToken: (scopes) =>
      mintAdminToken(config.platformTokenSecret, { tenantId: tenant.id, scopes, subject: 'bench', ttl: '2h' }),
    upkeep,
    async close() {
      await closeContext(context);
      await dropDatabase(config.databaseUrl);
      await redis.stop();
    },
  };
}

function seedCaller(app: App, apiKey: string, adminToken: string) {
  return async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await app.request(path, {
      method: 'POST',
      headers: { 'X-Api-Key': apiKey, Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201)
      throw new Error(`seeding ${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
}

/** A till's transaction report: the body every ingest benchmark sends, `n` making each one unique. */
export function purchaseReport(members: BenchWorld['members'], n: number, run: string) {
  return {
    type: EVENT_TYPE,
    subject: members[n % members.length]!.authIdentifier,
    payload: {
      transactionId: `${run}-${n}`,
      total: 10 + (n % 90),
      locationId: `store-${n % 40}`,
      cashierId: `cashier-${n % 7}`,
      lineItems: [
        { sku: 'COFFEE-L', quantity: 2, unitPrice: 3.5 },
        { sku: 'CROISSANT', quantity: 1, unitPrice: 2.2 },
        { sku: `SKU-${n % 500}`, quantity: 1, unitPrice: 4 + (n % 90) },
      ],
    },
  };
}
