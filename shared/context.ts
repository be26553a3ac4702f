import { systemClock, type Clock } from './platform/async/clock.js';
import type { Config } from './platform/config/config.js';
import { VoucherCodes } from './rewards/voucher-codes.js';
import type { Logger } from './platform/logging/logger.js';
import { createMetrics, type Metrics } from './platform/metrics/metrics.js';
import { createDatabase } from './database.js';
import type { Orm } from './platform/db/orm.js';
import { closeRedis, createRedis, type Redis } from './platform/redis/redis.js';
import { RedisConnectionLog } from './platform/redis/connection-log.js';
import { withTimeout } from './platform/async/with-timeout.js';
import { queueCatalog, type Queues } from './job-catalog.js';
import { closeQueues, createQueues } from './platform/queues/queue-factory.js';
import { TenantDirectory } from './tenants/tenant-directory.js';
import { AdminTokenVerifier } from './platform/auth/admin-token.js';
import { JwksCache } from './platform/auth/jwks-cache.js';
import { PayloadSchemaCompiler } from './platform/validation/payload-schema.js';
import { EventIdAllocator } from './events/event-ids.js';
import { AcceptedReports } from './events/accepted-reports.js';
import { RegistrationWatch } from './events/registration-watch.js';
import { EventQueueWriter } from './events/event-queue-writer.js';
import { EventTypeDirectory } from './event-types/event-type-directory.js';
import { SubjectDirectory } from './users/subject-directory.js';
import { ReactorDirectory } from './reactors/reactor-directory.js';
import { WebhookSubscriptions } from './webhooks/webhook-subscriptions.js';
import { ProductCatalogues } from './products/product-catalogue.js';
import { VenueDirectory } from './venues/venue-directory.js';
import { TransactionRuleEngine } from './rules/transaction-rule-engine.js';
import { DecisionWaiter } from './receipts/decision-waiter.js';
import { partnerOrderWaiter, type PartnerOrderWaiter } from './rewards/partner-orders.js';
import { KeyedHash } from './platform/secrets/keyed-hash.js';
import type { FingerprintKey } from './users/member-fingerprint.js';
import type { SourceUserKey } from './referrals/source-user-hash.js';

/**
 * What routes and workers need, built once at start and passed down (docs/architecture.md#layout): no module
 * reaches for a global connection, so each test builds its own world.
 */
export interface AppContext {
  config: Config;
  logger: Logger;
  /** What bounded waits (readiness checks, decision waits, audit enqueueing) read the time from. */
  clock: Clock;
  orm: Orm;
  /** Commands of the hot path (rate limits) and readiness checks, auto-pipelined. */
  redis: Redis;
  /** Where every Redis connection of the process reports losing and regaining Redis, once per outage. */
  redisConnections: RedisConnectionLog;
  /** The queues' own connection: producers only; each worker opens its own. */
  queueRedis: Redis;
  /** The MULTIs that queue reported events (accepted-reports.ts). */
  reportRedis: Redis;
  queues: Queues;
  metrics: Metrics;
  tenants: TenantDirectory;
  jwks: JwksCache;
  adminTokens: AdminTokenVerifier;
  payloadSchemas: PayloadSchemaCompiler;
  eventTypes: EventTypeDirectory;
  subjects: SubjectDirectory;
  reactors: ReactorDirectory;
  webhooks: WebhookSubscriptions;
  eventIds: EventIdAllocator;
  eventQueue: EventQueueWriter;
  /** Which reported events are accepted and not registered yet. */
  acceptedReports: AcceptedReports;
  /** Waits for accepted events to be registered, all sharing one poll. */
  registrationWatch: RegistrationWatch;
  products: ProductCatalogues;
  venues: VenueDirectory;
  ruleEngine: TransactionRuleEngine;
  decisions: DecisionWaiter;
  /** Lets POST /purchases wait for a PARTNER2 order's outcome (docs/rewards.md#partner-products). */
  partnerOrders: PartnerOrderWaiter;
  /** How voucher codes are hashed, sealed and opened (docs/rewards.md#codes). */
  voucherCodes: VoucherCodes;
  /** The key of members' fingerprints (docs/users.md#fingerprint). */
  fingerprintKey: FingerprintKey;
  /** The key referrals and clicks keep a sourceUserId under (docs/referrals.md#who-is-kept). */
  sourceUserKey: SourceUserKey;
}

export async function createContext(config: Config, logger: Logger, clock: Clock = systemClock): Promise<AppContext> {
  const orm = await createDatabase(config.databaseUrl, logger, { platformSecret: config.platformTokenSecret });
  const redisConnections = new RedisConnectionLog(logger, clock);
  const redis = createRedis(config.redisUrl, 'tally-commands', {
    autoPipelining: true,
    connections: redisConnections,
  });
  const queueRedis = createRedis(config.redisUrl, 'tally-queues', { connections: redisConnections });
  const payloadSchemas = new PayloadSchemaCompiler();
  const queues = createQueues(queueCatalog, queueRedis, config.redisPrefix, logger);
  const reportRedis = createRedis(config.redisUrl, 'tally-event-reports', { connections: redisConnections });
  const acceptedReports = new AcceptedReports(queues.events, queueRedis, reportRedis);
  const metrics = createMetrics();
  const products = new ProductCatalogues(orm, config.cacheTtlMs);
  const venues = new VenueDirectory(orm, config.cacheTtlMs);
  return {
    config,
    logger,
    clock,
    orm,
    redis,
    redisConnections,
    queueRedis,
    reportRedis,
    queues,
    metrics,
    tenants: new TenantDirectory(orm, config.cacheTtlMs),
    jwks: new JwksCache(config.fetchAllowPrivateAddresses),
    adminTokens: new AdminTokenVerifier(config.platformTokenSecret),
    payloadSchemas,
    eventTypes: new EventTypeDirectory(orm, payloadSchemas, config.cacheTtlMs),
    subjects: new SubjectDirectory(orm, config.memberCacheTtlMs),
    reactors: new ReactorDirectory(orm, config.cacheTtlMs),
    webhooks: new WebhookSubscriptions(orm, config.cacheTtlMs),
    eventIds: new EventIdAllocator(orm),
    eventQueue: new EventQueueWriter(queues.events, acceptedReports, metrics),
    acceptedReports,
    registrationWatch: new RegistrationWatch(orm),
    products,
    venues,
    ruleEngine: new TransactionRuleEngine(orm, products, venues, config.cacheTtlMs),
    decisions: new DecisionWaiter(queues.reviews, config.redisUrl, redisConnections, logger, clock),
    voucherCodes: new VoucherCodes(config.platformTokenSecret),
    fingerprintKey: new KeyedHash(config.platformTokenSecret, 'member-fingerprint'),
    sourceUserKey: new KeyedHash(config.platformTokenSecret, 'referral-source-user'),
    partnerOrders: partnerOrderWaiter({ queues, config, redisConnections, logger, clock }),
  };
}

/** How long closing the context's connections may take by default (docs/operations.md#shutdown). */
export const CONTEXT_CLOSE_MS = 3000;

/**
 * Closes what the context holds within `ms`, and never rejects: a step that does not finish
 * in time (its store is away) is left to the process's exit. Nothing is lost by that: what was
 * accepted is already committed in PostgreSQL or on a queue in Redis (docs/operations.md#shutdown).
 */
export async function closeContext(context: AppContext, ms = CONTEXT_CLOSE_MS): Promise<void> {
  // Two steps one after the other, each given half.
  const stepMs = ms / 2;
  const settle = (step: Promise<unknown>, what: string) =>
    withTimeout(step, stepMs, context.clock).catch((error: unknown) =>
      context.logger.warn({ err: error }, `${what} did not close within ${stepMs} ms: left to the process's exit`),
    );
  context.registrationWatch.close();
  // The queues and the event reader first: they use the connections closed next.
  await Promise.all([
    settle(context.decisions.close(), 'the review event reader'),
    settle(context.partnerOrders.close(), 'the partner order event reader'),
    settle(closeQueues(context.queues), 'the queues'),
  ]);
  await Promise.all([
    closeRedis(context.queueRedis, stepMs),
    closeRedis(context.reportRedis, stepMs),
    closeRedis(context.redis, stepMs),
    settle(context.orm.close(), 'the PostgreSQL pool'),
  ]);
}
