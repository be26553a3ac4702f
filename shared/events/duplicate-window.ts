import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { canonicalize } from 'json-canonicalize';

/** rewards-interface.md Limits: "duplicate window 60 seconds". */
export const DUPLICATE_WINDOW_SECONDS = 60;

/**
 * decisions.md §5: an event is a duplicate of one reported in the last 60 s with the same tenant,
 * type, resolved subject and canonical payload (keys sorted, RFC 8785); `occurredAt` is not part
 * of its identity. One `SET NX EX` claims the identity atomically across API replicas.
 */
export function duplicateKey(prefix: string, tenantId: string, typeName: string, subject: string, payload: unknown): string {
  const identity = createHash('sha256').update(`${typeName}\n${subject}\n${canonicalize(payload)}`).digest('base64url');
  return `${prefix}:dup:${tenantId}:${identity}`;
}

/** True when this report is the first with its identity in the window. */
export async function claimFirstReport(redis: Redis, key: string): Promise<boolean> {
  return (await redis.set(key, '1', 'EX', DUPLICATE_WINDOW_SECONDS, 'NX')) === 'OK';
}

/** The report was not accepted after all (the queue refused it): let the client's retry through. */
export async function releaseReport(redis: Redis, key: string): Promise<void> {
  await redis.del(key);
}
