import { createHash, randomUUID } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import type { EntityManager } from '../db/orm.js';
import type { ResponseSealer } from './sealed-response.js';

/** decisions.md §10: a key answers with its first response for 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A claim still without an answer after this long was left by a process that died mid-request
 * (longer than any request runs, SHUTDOWN_TIMEOUT_MS included): the next request takes it over
 * instead of being told "in progress" for the rest of the day.
 */
export const ABANDONED_CLAIM_MS = 60_000;

/** One claim in this many also sweeps records past the window, so the table does not grow forever. */
const SWEEP_ONE_IN = 100;

export type Claim =
  | { state: 'claimed'; recordId: string }
  | { state: 'replay'; status: number; body: string }
  | { state: 'mismatch' }
  | { state: 'in-progress' }
  /** Answered within the window, but sealed under a replaced PLATFORM_TOKEN_SECRET: not replayable, and not to be done twice. */
  | { state: 'unreadable' };

/** Method, path and body in canonical JSON (RFC 8785), so key order and spacing do not matter. */
export function requestFingerprint(method: string, path: string, body: string): string {
  let canonicalBody = body;
  try {
    canonicalBody = canonicalize(JSON.parse(body));
  } catch {
    // Not JSON: the route will refuse it; fingerprint the raw text so the refusal replays too.
  }
  return createHash('sha256').update(`${method} ${path}\n${canonicalBody}`).digest('hex');
}

/**
 * Claims a key for one request. The unique (tenant, key) row is the lock: of two concurrent
 * requests exactly one inserts it and does the work; the other sees it in progress, then the
 * stored answer. A record older than the window, or a claim abandoned by a dead process, is
 * removed and the key claimed afresh.
 */
export async function claimIdempotencyKey(em: EntityManager, sealer: ResponseSealer, tenantId: string, key: string, fingerprint: string): Promise<Claim> {
  const connection = em.getConnection();
  if (Math.random() * SWEEP_ONE_IN < 1) {
    await connection.execute('delete from idempotency_record where created_at < ?', [new Date(Date.now() - IDEMPOTENCY_WINDOW_MS)]);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await connection.execute<{ id: string }[]>(
      `insert into idempotency_record (id, tenant_id, key, request_hash, created_at)
       values (?, ?, ?, ?, now()) on conflict (tenant_id, key) do nothing returning id`,
      [randomUUID(), tenantId, key, fingerprint],
    );
    if (inserted[0]) return { state: 'claimed', recordId: inserted[0].id };
    const [existing] = await connection.execute<{ request_hash: string; response_status: number | null; response_body: string | null; created_at: Date }[]>(
      'select request_hash, response_status, response_body, created_at from idempotency_record where tenant_id = ? and key = ?',
      [tenantId, key],
    );
    if (!existing) continue; // released between our insert and select: try to claim it again
    const age = Date.now() - new Date(existing.created_at).getTime();
    const abandoned = existing.response_status === null && age > ABANDONED_CLAIM_MS;
    const body = existing.response_body === null ? undefined : sealer.open(existing.response_body);
    if (age > IDEMPOTENCY_WINDOW_MS || abandoned) {
      await connection.execute('delete from idempotency_record where tenant_id = ? and key = ? and created_at = ?', [tenantId, key, existing.created_at]);
      continue;
    }
    if (existing.request_hash !== fingerprint) return { state: 'mismatch' };
    if (existing.response_status === null) return { state: 'in-progress' };
    if (body === undefined) return { state: 'unreadable' };
    return { state: 'replay', status: existing.response_status, body };
  }
  return { state: 'in-progress' };
}

export async function completeIdempotencyKey(em: EntityManager, sealer: ResponseSealer, tenantId: string, recordId: string, status: number, body: string): Promise<void> {
  await em.getConnection().execute(
    'update idempotency_record set response_status = ?, response_body = ?, completed_at = now() where tenant_id = ? and id = ?',
    [status, sealer.seal(body), tenantId, recordId],
  );
}

/** The work failed on our side: free the key so the client's retry can do it. */
export async function releaseIdempotencyKey(em: EntityManager, tenantId: string, recordId: string): Promise<void> {
  await em.getConnection().execute('delete from idempotency_record where tenant_id = ? and id = ?', [tenantId, recordId]);
}
