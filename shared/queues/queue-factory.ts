import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { queueCatalog, queueNames, type QueueName } from './catalog.js';

export type Queues = Record<QueueName, Queue>;

/**
 * BullMQ keys are `<prefix>:<queue>:…`. A hash tag per queue keeps each queue's keys in one
 * Redis Cluster slot (its Lua scripts touch several keys at once) while spreading queues over
 * the cluster (STACK.md, BullMQ on Redis Cluster).
 */
export function queuePrefix(redisPrefix: string, name: QueueName): string {
  return `${redisPrefix}:{${name}}`;
}

/** One Queue per catalog entry, all on the process's shared command connection. */
export function createQueues(connection: Redis, redisPrefix: string): Queues {
  const entries = queueNames.map((name) => [
    name,
    new Queue(name, {
      connection,
      prefix: queuePrefix(redisPrefix, name),
      defaultJobOptions: queueCatalog[name].defaultJobOptions,
    }),
  ]);
  return Object.fromEntries(entries) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
