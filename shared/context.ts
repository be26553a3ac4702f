import type { Config } from './config/config.js';
import type { Logger } from './logging/logger.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { createOrm, type Orm } from './db/orm.js';
import { createRedis, type Redis } from './redis/redis.js';
import { closeQueues, createQueues, type Queues } from './queues/queue-factory.js';
import { TenantDirectory } from './tenants/tenant-directory.js';
import { JwksCache } from './auth/jwks-cache.js';
import { PayloadSchemaCompiler } from './event-types/payload-schema.js';

/**
 * What routes and workers need, built once at start and passed down (STYLE.md §8): no module
 * reaches for a global connection, so each test builds its own world.
 */
export interface AppContext {
  config: Config;
  logger: Logger;
  orm: Orm;
  redis: Redis;
  queues: Queues;
  metrics: Metrics;
  tenants: TenantDirectory;
  jwks: JwksCache;
  payloadSchemas: PayloadSchemaCompiler;
}

export async function createContext(config: Config, logger: Logger): Promise<AppContext> {
  const orm = await createOrm(config.databaseUrl, logger);
  const redis = createRedis(config.redisUrl, 'tally-commands');
  return {
    config,
    logger,
    orm,
    redis,
    queues: createQueues(redis, config.redisPrefix),
    metrics: createMetrics(),
    tenants: new TenantDirectory(orm, config.tenantCacheTtlMs),
    jwks: new JwksCache(),
    payloadSchemas: new PayloadSchemaCompiler(),
  };
}

export async function closeContext(context: AppContext): Promise<void> {
  await closeQueues(context.queues);
  await context.redis.quit();
  await context.orm.close();
}
