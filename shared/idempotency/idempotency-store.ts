import { createHash, randomUUID } from 'node:crypto';
import { stringify as canonicalize } from 'safe-stable-stringify';
import type { EntityManager } from '../platform/db/orm.js';
import type { Sealer } from '../platform/secrets/sealer.js';

/** docs/api-conventions.md#idempotency: a key answers with its first response for 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** One claim in this many also sweeps records past the window, so the table does not grow forever. */
const SWEEP_ONE_IN = 100;

export type Claim =
  /**
   * The key is this request's to work on. `reservedId` is the id the key's first request reserved
   * for what it creates; `takenOver` says a request before this one held the claim and died (or
   * failed) without an answer, so the work may be partly done under that id already.
   */
  | { state: 'claimed'; recordId: string; token: string; reservedId: string | null; takenOver: boolean }
  | { state: 'replay'; status: number; body: string }
  | { state: 'mismatch' }
  | { state: 'in-progress' }
  /** Answered within the window, but sealed under a replaced PLATFORM_TOKEN_SECRET: not replayable, and not to be done twice. */
  | { state: 'unreadable' };

/** Method, path with its query string, and body in canonical JSON (keys sorted), so key order and spacing do not matter. */
export function requestFingerprint(method: string, target: string, body: string): string {
  let canonicalBody = body;
  try {
    canonicalBody = canonicalize(JSON.parse(body)) ?? body;
  } catch {
    // Not JSON: the route will refuse it; fingerprint the raw text so the refusal replays too.
  }
  return createHash('sha256').update(`${method} ${target}\n${canonicalBody}`).digest('hex');
}

/** What a stored answer is sealed to: its tenant and key, so it opens for no other row. */
function answerContext(tenantId: string, key: string): string {
  return `${tenantId}\n${key}`;
}

export interface ClaimRequest {
  tenantId: string;
  key: string;
  fingerprint: string;
  /**
   * How long the claim holds without renewal (`renewIdempotencyClaim`). One whose lease lapsed was
   * left by a process that died mid-request: the next request with the same body takes it over.
   */
  leaseMs: number;
  /** Reserves the id of what the request creates, kept with the claim for any request that takes it over. */
  reserve?: () => Promise<string>;
}

/**
 * Claims a key for one request. The unique (tenant, key) row is the lock: of two concurrent
 * requests exactly one inserts it and does the work; the other sees it in progress, then the
 * stored answer. A claim abandoned by a dead process is taken over, reserved id and all, so the
 * retry finishes the first request's work instead of doing it again; a record older than the
 * window is removed and the key claimed afresh.
 */
export async function claimIdempotencyKey(em: EntityManager, sealer: Sealer, request: ClaimRequest): Promise<Claim> {
  const { tenantId, key, fingerprint, leaseMs } = request;
  const connection = em.getConnection();
  if (Math.random() * SWEEP_ONE_IN < 1) {
    await connection.execute('delete from idempotency_record where created_at < ?', [
      new Date(Date.now() - IDEMPOTENCY_WINDOW_MS),
    ]);
  }
  // Reserved once per request, whatever the attempts below find: an id a replay never uses is a gap.
  const reservedId = request.reserve ? await request.reserve() : null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomUUID();
    const inserted = await connection.execute<{ id: string }[]>(
      `insert into idempotency_record (id, tenant_id, key, request_hash, reserved_id, claim_token, created_at, claimed_until)
       values (?, ?, ?, ?, ?, ?, now(), now() + ? * interval '1 millisecond') on conflict (tenant_id, key) do nothing returning id`,
      [randomUUID(), tenantId, key, fingerprint, reservedId, token, leaseMs],
    );
    if (inserted[0]) return { state: 'claimed', recordId: inserted[0].id, token, reservedId, takenOver: false };
    const [existing] = await connection.execute<
      {
        id: string;
        request_hash: string;
        response_status: number | null;
        response_body: string | null;
        created_at: Date;
        lapsed: boolean;
      }[]
    >(
      `select id, request_hash, response_status, response_body, created_at, claimed_until < now() as lapsed
         from idempotency_record where tenant_id = ? and key = ?`,
      [tenantId, key],
    );
    if (!existing) continue; // removed between our insert and select: try to claim it again
    if (Date.now() - new Date(existing.created_at).getTime() > IDEMPOTENCY_WINDOW_MS) {
      await connection.execute('delete from idempotency_record where tenant_id = ? and id = ?', [
        tenantId,
        existing.id,
      ]);
      continue;
    }
    if (existing.request_hash !== fingerprint) return { state: 'mismatch' };
    if (existing.response_status === null) {
      if (!existing.lapsed) return { state: 'in-progress' };
      const takenOver = await takeOverClaim(em, request, existing.id, reservedId);
      if (takenOver) return takenOver;
      continue; // answered or taken over by another retry meanwhile: look again
    }
    const body =
      existing.response_body === null ? undefined : sealer.open(existing.response_body, answerContext(tenantId, key));
    if (body === undefined) return { state: 'unreadable' };
    return { state: 'replay', status: existing.response_status, body };
  }
  return { state: 'in-progress' };
}

/**
 * Takes over an abandoned claim, only while it is still unanswered and lapsed, so of two retries
 * one wins and a request that answers meanwhile keeps its answer. The first request's reserved id
 * stays; a record from before reservations gets the one just reserved.
 */
async function takeOverClaim(
  em: EntityManager,
  request: ClaimRequest,
  recordId: string,
  freshReservation: string | null,
): Promise<Claim | undefined> {
  const token = randomUUID();
  const [row] = await em.getConnection().execute<{ reserved_id: string | null }[]>(
    `update idempotency_record set claimed_until = now() + ? * interval '1 millisecond', claim_token = ?, reserved_id = coalesce(reserved_id, ?)
      where tenant_id = ? and id = ? and response_status is null and claimed_until < now() returning reserved_id`,
    [request.leaseMs, token, freshReservation, request.tenantId, recordId],
  );
  return row ? { state: 'claimed', recordId, token, reservedId: row.reserved_id, takenOver: true } : undefined;
}

/** The claim a request holds: its record, and the token only that request has. */
export interface HeldClaim {
  tenantId: string;
  recordId: string;
  token: string;
}

/** Keeps a claim while its request is still working. */
export async function renewIdempotencyClaim(em: EntityManager, claim: HeldClaim, leaseMs: number): Promise<void> {
  await em
    .getConnection()
    .execute(
      "update idempotency_record set claimed_until = now() + ? * interval '1 millisecond' where tenant_id = ? and id = ? and claim_token = ? and response_status is null",
      [leaseMs, claim.tenantId, claim.recordId, claim.token],
    );
}

/** Stores the answer; false when the claim is no longer ours (it lapsed and a retry took it over, or answered it). */
export async function completeIdempotencyKey(
  em: EntityManager,
  sealer: Sealer,
  claim: HeldClaim & { key: string },
  status: number,
  body: string,
): Promise<boolean> {
  const updated = await em
    .getConnection()
    .execute<{ id: string }[]>(
      'update idempotency_record set response_status = ?, response_body = ?, completed_at = now() where tenant_id = ? and id = ? and claim_token = ? and response_status is null returning id',
      [
        status,
        sealer.seal(body, answerContext(claim.tenantId, claim.key)),
        claim.tenantId,
        claim.recordId,
        claim.token,
      ],
    );
  return updated.length > 0;
}

/**
 * The work failed on our side: the claim lapses at once, so the client's retry takes it over and
 * does the work under the same reserved id. It is not deleted: part of the work may be done (an
 * event accepted before a later step failed), and only the reserved id keeps a retry from doing
 * that part twice.
 */
export async function releaseIdempotencyClaim(em: EntityManager, claim: HeldClaim): Promise<void> {
  await em
    .getConnection()
    .execute(
      "update idempotency_record set claimed_until = now() - interval '1 millisecond' where tenant_id = ? and id = ? and claim_token = ? and response_status is null",
      [claim.tenantId, claim.recordId, claim.token],
    );
}
