import { Redis } from 'ioredis';
import { withTimeout } from '../async/with-timeout.js';
import type { RedisConnectionLog } from './connection-log.js';

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
   * Where its errors and reconnections are reported, once per outage for the whole process;
   * unhandled, ioredis prints each error to stderr, outside the JSON logs.
   */
  connections?: RedisConnectionLog;
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
  options.connections?.track(connection, connectionName);
  return connection;
}

/**
 * Closes a connection within `ms`, and never rejects (docs/operations.md#shutdown): QUIT when it is
 * ready, so the replies still due arrive first; a plain disconnect when it is not (a QUIT would wait
 * for a Redis that is away, then reject with "Connection is closed." when the socket drops), or
 * when QUIT takes longer than `ms`.
 */
export async function closeRedis(connection: Redis, ms: number): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status === 'ready') {
    const quit = await withTimeout(connection.quit(), ms).then(
      () => true,
      () => false,
    );
    if (quit) return;
  }
  connection.disconnect();
}
