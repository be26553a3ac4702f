import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ConflictError, fieldError, IdempotencyKeyReusedError } from '../../shared/platform/errors/app-errors.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyClaim,
  renewIdempotencyClaim,
  requestFingerprint,
  type Claim,
  type ClaimRequest,
} from '../../shared/idempotency/idempotency-store.js';
import type { Principal } from '../../shared/platform/auth/principal.js';
import type { AppContext } from '../../shared/context.js';
import { Sealer } from '../../shared/platform/secrets/sealer.js';
import { entityManager, requestLogger, type AppEnv } from '../app-env.js';
import { JSON_CONTENT_TYPE, success } from '../routes/answer.js';

const KEY = /^[\x21-\x7e]{1,255}$/;
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 50;

export interface IdempotencyOptions {
  /**
   * Reserves, with the key, the id of what the route creates; the route reads it as
   * `c.var.reservedId`. A retry that takes over a dead request's claim gets the same id, so work
   * the first request already did under it (an event queued) is found, not done again.
   */
  reserve?: () => Promise<string>;
  /**
   * What a retry that takes over a dead request's claim answers when that request had already
   * created its record under the reserved id (undefined when it had not: the route then runs).
   */
  recover?: (c: Context<AppEnv>, reservedId: string) => Promise<Response | undefined>;
  /**
   * Whose key it is, for a route that authorizes after this middleware (POST /v1/events): by
   * default the token's subject, or the credential itself where no token was verified yet.
   */
  caller?: (c: Context<AppEnv>) => Promise<string>;
}

/**
 * For a route that creates one record in PostgreSQL, under `c.var.reservedId` when it is set: a
 * uuid reserved with the key, and the record's answer, built by `answer` from what is stored, for a
 * retry that finds the first request created it before dying. That answer is what GET shows, plus
 * whatever `answer` can show again: a secret stored only as a hash is not in it.
 */
export function createsRecord(
  answer: (c: Context<AppEnv>, reservedId: string) => Promise<Response | undefined>,
): IdempotencyOptions {
  return { reserve: async () => randomUUID(), recover: answer };
}

/** `createsRecord` for a record whose 201 answer is its view: the tenant's `entity` with the reserved id, shown by `view`. */
export function createsRecordOf<T extends object>(
  entity: EntityName<T>,
  view: (record: T) => unknown,
): IdempotencyOptions {
  return createsRecord(async (c, id) => {
    const record = await entityManager(c).findOne(entity, { tenant: c.var.tenant.id, id } as FilterQuery<T>);
    return record ? success(c, view(record as T), 201) : undefined;
  });
}

/**
 * `Idempotency-Key` on a creating POST (docs/api-conventions.md#idempotency): the same key and body within 24 h get
 * the first response again (with `Idempotent-Replayed: true`); another body is 422; a request
 * arriving while the first is still running waits for its answer, and is told to retry (409) if it
 * does not come. Answers of 500 and above are not kept, so a retry after our failure does the work,
 * under the id the first request reserved. An answer the route gave is sent whatever happens to its
 * bookkeeping: work already accepted is never answered as failed because PostgreSQL went away
 * before the answer was stored (the claim then lapses, and a retry finishes the work under the
 * reserved id). Keys belong to the caller (the token's subject, within the tenant), as a client's
 * own keys should: another caller's same key is theirs.
 */
export function idempotent(context: AppContext, options: IdempotencyOptions = {}): MiddlewareHandler<AppEnv> {
  const sealer = new Sealer(context.config.platformTokenSecret, 'idempotency-response');
  const leaseMs = context.config.idempotencyLeaseMs;
  return async (c, next) => {
    const header = c.req.header('idempotency-key');
    if (header === undefined) return next();
    if (!KEY.test(header)) {
      throw fieldError(
        'Idempotency-Key',
        header,
        'format',
        'Idempotency-Key must be 1 to 255 visible ASCII characters',
      );
    }
    const caller = options.caller ? await options.caller(c) : callerOf(c.var.principal, c.req.header('authorization'));
    const key = createHash('sha256').update(`${caller}\n${header}`).digest('hex');
    // The query string is part of the request: POST /users?locale=fr and ?locale=en store different text.
    const target = c.req.path + new URL(c.req.url).search;
    const fingerprint = requestFingerprint(c.req.method, target, await c.req.text());
    // One reservation for the request, however often it asks for the claim while another holds it.
    let reservation: Promise<string> | undefined;
    const reserve = options.reserve && (() => (reservation ??= options.reserve!()));
    const claim = await waitForClaim(c, sealer, {
      tenantId: c.var.tenant.id,
      key,
      fingerprint,
      leaseMs,
      ...(reserve ? { reserve } : {}),
    });
    if (claim.state === 'mismatch') throw new IdempotencyKeyReusedError();
    if (claim.state === 'replay') {
      c.header('Idempotent-Replayed', 'true');
      return c.body(claim.body, claim.status as ContentfulStatusCode, { 'Content-Type': JSON_CONTENT_TYPE });
    }
    if (claim.state === 'in-progress')
      throw new ConflictError('A request with this Idempotency-Key is still being processed: retry later');
    if (claim.state === 'unreadable')
      throw new ConflictError(
        'This Idempotency-Key was answered within 24 hours, but that answer can no longer be shown: use a new key',
      );

    const held = { tenantId: c.var.tenant.id, recordId: claim.recordId, token: claim.token };
    if (claim.takenOver)
      requestLogger(c).info(
        { idempotencyKey: header, reservedId: claim.reservedId },
        'taking over an idempotency claim whose request left no answer',
      );
    if (claim.reservedId !== null) c.set('reservedId', claim.reservedId);
    // The claim stays ours while this request works, however long that takes.
    const renewal = setInterval(() => {
      renewIdempotencyClaim(context.orm.em.fork(), held, leaseMs).catch((error: unknown) =>
        requestLogger(c).warn({ err: error }, 'could not renew an idempotency claim'),
      );
    }, leaseMs / 3);
    const recover =
      claim.takenOver && claim.reservedId !== null && options.recover
        ? () => options.recover!(c, claim.reservedId!)
        : undefined;
    try {
      const recovered = await recover?.();
      if (recovered) c.res = recovered;
      else await next();
      // Taken over while the first request still ran (its renewals failed): it has committed the
      // record meanwhile, and this run's insert of the same id met it. Its answer is the record.
      if (recover && c.res.status === 409) c.res = (await recover()) ?? c.res;
    } catch (error) {
      // A failure before any answer: the key is free again at once, not blocked for the lease.
      await releaseIdempotencyClaim(entityManager(c), held).catch(() => undefined);
      throw error;
    } finally {
      clearInterval(renewal);
    }
    try {
      if (c.res.status >= 500) {
        await releaseIdempotencyClaim(entityManager(c), held);
      } else if (
        !(await completeIdempotencyKey(
          entityManager(c),
          sealer,
          { ...held, key },
          c.res.status,
          await c.res.clone().text(),
        ))
      ) {
        requestLogger(c).warn(
          { idempotencyKey: header },
          'the idempotency claim lapsed and a retry took it over before this answer was stored',
        );
      }
    } catch (error) {
      // The answer stands: a retry finds the claim lapsed and finishes the work under its reserved id.
      requestLogger(c).warn({ err: error, idempotencyKey: header }, 'could not store the answer to an Idempotency-Key');
    }
  };
}

/**
 * Whose key it is: the token's subject; where no token names a caller, the credential itself, so
 * one caller's key never replays another's answer.
 */
export function callerOf(principal: Principal | undefined, authorization: string | undefined): string {
  if (principal) return principal.kind === 'admin' ? `admin:${principal.subject}` : `user:${principal.authIdentifier}`;
  return authorization ? `credential:${createHash('sha256').update(authorization).digest('hex')}` : 'tenant';
}

async function waitForClaim(c: Context<AppEnv>, sealer: Sealer, request: ClaimRequest): Promise<Claim> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = await claimIdempotencyKey(entityManager(c), sealer, request);
    if (claim.state !== 'in-progress' || Date.now() >= deadline) return claim;
    await sleep(POLL_MS);
  }
}
