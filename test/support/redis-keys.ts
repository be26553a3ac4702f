import { Redis } from 'ioredis';

/** Removes every key under a test's or benchmark's prefix, so runs leave Redis as they found it. */
export async function deleteKeysWithPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
