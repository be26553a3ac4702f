import { createHash, randomUUID } from 'node:crypto';
import { stringify as canonicalize } from 'safe-stable-stringify';
import type { EntityManager } from '../db/orm.js';
import type { Sealer } from '../secrets/sealer.js';

/** decisions.md §10: a key answers with its first response for 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A claim is held for this long and renewed by the request working on it every third of it
 * (`renewIdempotencyClaim`). One whose lease lapsed was left by a process that died mid-request:
 * the next request takes it over instead of being told "in progress" for the rest of the day,
 * while a request that is merely slow keeps its claim.
 */
export const CLAIM_LEASE_MS = 30_000;

/** One claim in this many also sweeps records past the window, so the table does not grow forever. */
const SWEEP_ONE_IN = 100;

export type Claim =
  | { state: 'claimed'; recordId: string }
  | { state: 'replay'; status: number; body: string }
  | { state: 'mismatch' }
  | { state: 'in-progress' }
  /** Answered within the window, but sealed under a replaced PLATFORM_TOKEN_SECRET: not replayable, and not to be done twice. */
  | { state: 'unreadable' };

/** Method, path and body in canonical JSON (keys sorted), so key order and spacing do not matter. */
export function requestFingerprint(method: string, path: string, body: string): string {
  let canonicalBody = body;
  try {
    canonicalBody = canonicalize(JSON.parse(body)) ?? body;
  } catch {
    // Not JSON: the route will refuse it; fingerprint the raw text so the refusal replays too.
  }
  return createHash('sha256').update(`${method} ${path}\n${canonicalBody}`).digest('hex');
}

/** What a stored answer is sealed to: its tenant and key, so it opens for no other row. */
function answerContext(tenantId: string, key: string): string {
  return `${tenantId}\n${key}`;
}

/**
 * Claims a key for one request. The unique (tenant, key) row is the lock: of two concurrent
 * requests exactly one inserts it and does the work; the other sees it in progress, then the
 * stored answer. A record older than the window, or a claim abandoned by a dead process, is
 * removed and the key claimed afresh.
 */
export async function claimIdempotencyKey(em: EntityManager, sealer: Sealer, tenantId: string, key: string, fingerprint: string): Promise<Claim> {
  const connection = em.getConnection();
  if (Math.random() * SWEEP_ONE_IN < 1) {
    await connection.execute('delete from idempotency_record where created_at < ?', [new Date(Date.now() - IDEMPOTENCY_WINDOW_MS)]);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await connection.execute<{ id: string }[]>(
      `insert into idempotency_record (id, tenant_id, key, request_hash, created_at, claimed_until)
       values (?, ?, ?, ?, now(), now() + ? * interval '1 millisecond') on conflict (tenant_id, key) do nothing returning id`,
      [randomUUID(), tenantId, key, fingerprint, CLAIM_LEASE_MS],
    );
    if (inserted[0]) return { state: 'claimed', recordId: inserted[0].id };
    const [existing] = await connection.execute<{ id: string; request_hash: string; response_status: number | null; response_body: string | null; created_at: Date; lapsed: boolean }[]>(
      `select id, request_hash, response_status, response_body, created_at, claimed_until < now() as lapsed
         from idempotency_record where tenant_id = ? and key = ?`,
      [tenantId, key],
    );
    if (!existing) continue; // released between our insert and select: try to claim it again
    const expired = Date.now() - new Date(existing.created_at).getTime() > IDEMPOTENCY_WINDOW_MS;
    const abandoned = existing.response_status === null && existing.lapsed;
    if (expired || abandoned) {
      // Only the row we judged, and an abandoned one only while still unanswered: a request that
      // completes meanwhile keeps its answer.
      await connection.execute(`delete from idempotency_record where tenant_id = ? and id = ?${expired ? '' : ' and response_status is null and claimed_until < now()'}`, [tenantId, existing.id]);
      continue;
    }
    if (existing.request_hash !== fingerprint) return { state: 'mismatch' };
    if (existing.response_status === null) return { state: 'in-progress' };
    const body = existing.response_body === null ? undefined : sealer.open(existing.response_body, answerContext(tenantId, key));
    if (body === undefined) return { state: 'unreadable' };
    return { state: 'replay', status: existing.response_status, body };
  }
  return { state: 'in-progress' };
}

/** Keeps a claim while its request is still working (see CLAIM_LEASE_MS). */
export async function renewIdempotencyClaim(em: EntityManager, tenantId: string, recordId: string): Promise<void> {
  await em.getConnection().execute(
    "update idempotency_record set claimed_until = now() + ? * interval '1 millisecond' where tenant_id = ? and id = ? and response_status is null",
    [CLAIM_LEASE_MS, tenantId, recordId],
  );
}

/** Stores the answer; false when the claim is no longer ours (it lapsed and was taken over). */
export async function completeIdempotencyKey(
  em: EntityManager,
  sealer: Sealer,
  claim: { tenantId: string; key: string; recordId: string },
  status: number,
  body: string,
): Promise<boolean> {
  const updated = await em.getConnection().execute<{ id: string }[]>(
    'update idempotency_record set response_status = ?, response_body = ?, completed_at = now() where tenant_id = ? and id = ? returning id',
    [status, sealer.seal(body, answerContext(claim.tenantId, claim.key)), claim.tenantId, claim.recordId],
  );
  return updated.length > 0;
}

/** The work failed on our side: free the key so the client's retry can do it. */
export async function releaseIdempotencyKey(em: EntityManager, tenantId: string, recordId: string): Promise<void> {
  await em.getConnection().execute('delete from idempotency_record where tenant_id = ? and id = ? and response_status is null', [tenantId, recordId]);
}
