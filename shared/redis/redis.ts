import { Redis } from 'ioredis';

export type { Redis };

export interface RedisConnectionOptions {
  /**
   * Send the commands issued in one turn of the event loop in one write (ioredis auto-pipelining).
   * For the hot path's own commands (rate limits), where many requests run at once; not for BullMQ
   * connections, where it has been reported to confuse workers, and where `addBulk` pipelines anyway.
   */
  autoPipelining?: boolean;
}

/**
 * A Redis connection. BullMQ needs `maxRetriesPerRequest: null` on the connections its workers
 * block on; the same setting keeps a command waiting through a Redis restart instead of failing it
 * after 20 tries.
 */
export function createRedis(url: string, connectionName: string, options: RedisConnectionOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, connectionName, lazyConnect: false, enableAutoPipelining: options.autoPipelining ?? false });
}
