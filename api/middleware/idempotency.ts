import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ConflictError, fieldError, IdempotencyKeyReusedError } from '../../shared/errors/app-errors.js';
import {
  claimIdempotencyKey,
  CLAIM_LEASE_MS,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  renewIdempotencyClaim,
  requestFingerprint,
  type Claim,
} from '../../shared/idempotency/idempotency-store.js';
import type { Principal } from '../../shared/auth/principal.js';
import type { AppContext } from '../../shared/context.js';
import { Sealer } from '../../shared/secrets/sealer.js';
import { entityManager, requestLogger, type AppEnv } from '../app-env.js';

const KEY = /^[\x21-\x7e]{1,255}$/;
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 50;

/**
 * `Idempotency-Key` on a creating POST (decisions.md §10): the same key and body within 24 h get
 * the first response again (with `Idempotent-Replayed: true`); another body is 422; a request
 * arriving while the first is still running waits for its answer. Answers of 500 and above are not
 * kept, so a retry after our failure does the work. Keys belong to the caller (the token's
 * subject, within the tenant), as a client's own keys should: another caller's same key is theirs.
 */
export function idempotent(context: AppContext): MiddlewareHandler<AppEnv> {
  const sealer = new Sealer(context.config.platformTokenSecret, 'idempotency-response');
  return async (c, next) => {
    const header = c.req.header('idempotency-key');
    if (header === undefined) return next();
    if (!KEY.test(header)) {
      throw fieldError('Idempotency-Key', header, 'format', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const key = createHash('sha256').update(`${callerOf(c.var.principal, c.req.header('authorization'))}\n${header}`).digest('hex');
    const fingerprint = requestFingerprint(c.req.method, c.req.path, await c.req.text());
    const claim = await waitForClaim(c, sealer, key, fingerprint);
    if (claim.state === 'mismatch') throw new IdempotencyKeyReusedError();
    if (claim.state === 'replay') {
      c.header('Idempotent-Replayed', 'true');
      return c.body(claim.body, claim.status as ContentfulStatusCode, { 'Content-Type': 'application/json; charset=utf-8' });
    }
    if (claim.state === 'in-progress') throw new ConflictError('A request with this Idempotency-Key is still being processed: retry later');
    if (claim.state === 'unreadable') throw new ConflictError('This Idempotency-Key was answered within 24 hours, but that answer can no longer be shown: use a new key');

    const tenantId = c.var.tenant.id;
    // The claim stays ours while this request works, however long that takes.
    const renewal = setInterval(() => {
      renewIdempotencyClaim(context.orm.em.fork(), tenantId, claim.recordId).catch((error: unknown) => requestLogger(c).warn({ err: error }, 'could not renew an idempotency claim'));
    }, CLAIM_LEASE_MS / 3);
    try {
      await next();
    } finally {
      clearInterval(renewal);
    }
    if (c.res.status >= 500) {
      await releaseIdempotencyKey(entityManager(c), tenantId, claim.recordId);
    } else if (!(await completeIdempotencyKey(entityManager(c), sealer, { tenantId, key, recordId: claim.recordId }, c.res.status, await c.res.clone().text()))) {
      requestLogger(c).warn({ idempotencyKey: header }, 'the idempotency claim lapsed and was taken over before this answer was stored');
    }
  };
}

/**
 * Whose key it is: the token's subject; where no token names a caller (POST /events takes an event
 * type's secret or a user token, checked after this), the credential itself, so one caller's
 * key never replays another's answer.
 */
function callerOf(principal: Principal | undefined, authorization: string | undefined): string {
  if (principal) return principal.kind === 'admin' ? `admin:${principal.subject}` : `user:${principal.authIdentifier}`;
  return authorization ? `credential:${createHash('sha256').update(authorization).digest('hex')}` : 'tenant';
}

async function waitForClaim(c: Context<AppEnv>, sealer: Sealer, key: string, fingerprint: string): Promise<Claim> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = await claimIdempotencyKey(entityManager(c), sealer, c.var.tenant.id, key, fingerprint);
    if (claim.state !== 'in-progress' || Date.now() >= deadline) return claim;
    await sleep(POLL_MS);
  }
}
