import { Redis } from 'ioredis';

export type { Redis };

/**
 * One connection for commands (rate limits, duplicate window, queue adds) shared by the process.
 * BullMQ needs `maxRetriesPerRequest: null` on the connections its workers block on; the same
 * setting keeps a command waiting through a Redis restart instead of failing it after 20 tries.
 */
export function createRedis(url: string, connectionName: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, connectionName, lazyConnect: false });
}
