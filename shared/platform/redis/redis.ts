import { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';

export type { Redis };

export interface RedisConnectionOptions {
  /**
   * Send the commands issued in one turn of the event loop in one write (ioredis auto-pipelining).
   * For the hot path's own commands (rate limits), where many requests run at once; not for BullMQ
   * connections, where it has been reported to confuse workers, and where the events queue gathers
   * its adds into one job itself.
   */
  autoPipelining?: boolean;
  /**
   * Where connection errors go while ioredis reconnects on its own; without a listener ioredis
   * prints each one to stderr, outside the JSON logs.
   */
  logger?: Logger;
}

/**
 * A Redis connection. BullMQ needs `maxRetriesPerRequest: null` on the connections its workers
 * block on; the same setting keeps a command waiting through a Redis restart instead of failing it
 * after 20 tries.
 */
export function createRedis(url: string, connectionName: string, options: RedisConnectionOptions = {}): Redis {
  const connection = new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName,
    lazyConnect: false,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
  if (options.logger) {
    const logger = options.logger;
    connection.on('error', (error: Error) =>
      logger.warn({ err: error, connection: connectionName }, 'Redis connection error: reconnecting'),
    );
  }
  return connection;
}
