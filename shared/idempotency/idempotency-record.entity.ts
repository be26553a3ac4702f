import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';

/**
 * The first answer to a creating POST carrying an Idempotency-Key
 * (docs/api-conventions.md#idempotency). The unique (tenant, key) pair is what makes two concurrent
 * requests with one key do the work once.
 */
export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_record',
  uniques: [{ properties: ['tenant', 'key'] }],
  indexes: [{ properties: ['createdAt'] }],
  properties: {
    ...tenantOwned(),
    key: p.string(),
    /** SHA-256 of method, path and the canonical body (keys sorted). */
    requestHash: p.string(),
    /** The id the first request reserved for what it creates (an event id, say): a retry that takes the claim over creates under it too. */
    reservedId: p.string().nullable(),
    /** Which request holds the claim: renewing, answering and releasing it take this token, so a request that lost its claim to a retry cannot touch the retry's. */
    claimToken: p.uuid().nullable(),
    responseStatus: p.integer().nullable(),
    responseBody: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** While unanswered: the request working on it renews this; once it lapses, the claim is abandoned. */
    claimedUntil: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
  },
});

export type IdempotencyRecord = InferEntity<typeof IdempotencyRecord>;
