import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ConflictError, IdempotencyKeyReusedError, ValidationError } from '../../shared/errors/app-errors.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
  type Claim,
} from '../../shared/idempotency/idempotency-store.js';
import type { AppEnv } from '../app-env.js';

const KEY = /^[\x21-\x7e]{1,255}$/;
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 50;

/**
 * `Idempotency-Key` on a creating POST (decisions.md §10): the same key and body within 24 h get
 * the first response again (with `Idempotent-Replayed: true`); another body is 422; a request
 * arriving while the first is still running waits for its answer. Answers of 500 and above are not
 * kept, so a retry after our failure does the work.
 */
export function idempotent(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (!KEY.test(key)) {
      throw new ValidationError('Idempotency-Key must be 1 to 255 visible ASCII characters', [
        { property: 'Idempotency-Key', value: key, constraints: { format: 'Idempotency-Key must be 1 to 255 visible ASCII characters' }, children: [] },
      ]);
    }
    const fingerprint = requestFingerprint(c.req.method, c.req.path, await c.req.text());
    const claim = await waitForClaim(c, key, fingerprint);
    if (claim.state === 'mismatch') throw new IdempotencyKeyReusedError();
    if (claim.state === 'replay') {
      c.header('Idempotent-Replayed', 'true');
      return c.body(claim.body, claim.status as ContentfulStatusCode, { 'Content-Type': 'application/json; charset=utf-8' });
    }
    if (claim.state === 'in-progress') throw new ConflictError('A request with this Idempotency-Key is still being processed: retry later');

    await next();
    if (c.res.status >= 500) {
      await releaseIdempotencyKey(c.var.em, claim.recordId);
    } else {
      await completeIdempotencyKey(c.var.em, claim.recordId, c.res.status, await c.res.clone().text());
    }
  };
}

async function waitForClaim(c: Context<AppEnv>, key: string, fingerprint: string): Promise<Claim> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = await claimIdempotencyKey(c.var.em, c.var.tenant.id, key, fingerprint);
    if (claim.state !== 'in-progress' || Date.now() >= deadline) return claim;
    await sleep(POLL_MS);
  }
}
