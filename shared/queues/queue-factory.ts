import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';
import { queueCatalog, queueNames, type JobData, type QueueName } from './catalog.js';

/** Each queue typed by its catalog payload: what is added and what is read back is its JobData. */
export type Queues = { [Q in QueueName]: Queue<JobData<Q>> };

/**
 * BullMQ keys are `<prefix>:<queue>:…`. A hash tag per queue keeps each queue's keys in one
 * Redis Cluster slot (its Lua scripts touch several keys at once) while spreading queues over
 * the cluster (STACK.md, BullMQ on Redis Cluster).
 */
export function queuePrefix(redisPrefix: string, name: QueueName): string {
  return `${redisPrefix}:{${name}}`;
}

/** One Queue per catalog entry, all on one connection; their connection errors go to the log. */
export function createQueues(connection: Redis, redisPrefix: string, logger: Logger): Queues {
  const entries = queueNames.map((name) => {
    const queue = new Queue(name, {
      connection,
      prefix: queuePrefix(redisPrefix, name),
      defaultJobOptions: queueCatalog[name].defaultJobOptions,
    });
    queue.on('error', (error) => logger.warn({ err: error, queue: name }, 'queue connection error'));
    return [name, queue];
  });
  return Object.fromEntries(entries) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
