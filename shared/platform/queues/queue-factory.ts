import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Static, TSchema } from 'typebox';
import type { Logger } from '../logging/logger.js';
import { isConnectionError } from '../redis/connection-log.js';

/** One queue: what its jobs carry, how many a worker runs at once, and its jobs' default options. */
export interface QueueDefinition {
  /** JSON Schema of the job payload, checked by the worker before it does anything. */
  payload: TSchema;
  /** Jobs one worker process runs at once. */
  concurrency: number;
  defaultJobOptions: JobsOptions;
}

export type QueueCatalog = Record<string, QueueDefinition>;

/** Each queue of a catalog typed by its payload: what is added and what is read back is that payload's type. */
export type QueuesOf<Catalog extends QueueCatalog> = {
  [Name in keyof Catalog]: Queue<Static<Catalog[Name]['payload']>>;
};

/**
 * BullMQ keys are `<prefix>:<queue>:…`. A hash tag per queue keeps each queue's keys in one
 * Redis Cluster slot (its Lua scripts touch several keys at once) while spreading queues over
 * the cluster (docs/dependencies.md: bullmq).
 */
export function queuePrefix(redisPrefix: string, name: string): string {
  return `${redisPrefix}:{${name}}`;
}

/**
 * One Queue per catalog entry, all on one connection. Their errors go to the log, but for those
 * that only say Redis is away: the connection's log reports an outage once (connection-log.ts).
 */
export function createQueues<Catalog extends QueueCatalog>(
  catalog: Catalog,
  connection: Redis,
  redisPrefix: string,
  logger: Logger,
): QueuesOf<Catalog> {
  const entries = Object.entries(catalog).map(([name, definition]) => {
    const queue = new Queue(name, {
      connection,
      prefix: queuePrefix(redisPrefix, name),
      defaultJobOptions: definition.defaultJobOptions,
    });
    queue.on('error', (error) => {
      if (!isConnectionError(error)) logger.warn({ err: error, queue: name }, 'queue error');
    });
    return [name, queue];
  });
  return Object.fromEntries(entries) as QueuesOf<Catalog>;
}

export async function closeQueues(queues: Record<string, Queue>): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
