import type { Queue } from 'bullmq';
import { Type, type Static } from 'typebox';

/** The payload of one `partner-orders` job: a partner product's purchase to place with its partner. */
export const PartnerOrderJob = Type.Object(
  { tenantId: Type.String({ format: 'uuid' }), purchaseId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
export type PartnerOrderJob = Static<typeof PartnerOrderJob>;

/** The queue partner products' orders are placed from. */
export interface PartnerOrderQueue {
  'partner-orders': Queue<PartnerOrderJob>;
}

/** 1 attempt and 9 retries, doubling from the base delay. */
const PARTNER_ORDER_ATTEMPTS = 10;

/**
 * docs/rewards.md#partner-products: a partner that is down or slow is tried again for about an
 * hour (a base of 7 s doubled over nine retries) before the purchase is refunded.
 */
const DEFAULT_PARTNER_RETRY_BASE_MS = Math.round(3600_000 / (2 ** (PARTNER_ORDER_ATTEMPTS - 1) - 1));

/** The job's id comes from the purchase: queued again (a retried request, the recovery sweep), it is not added twice. */
export function partnerOrderJobId(purchaseId: string): string {
  return `partner-order-${purchaseId}`;
}

export function partnerOrderJobOptions(purchaseId: string, retryBaseMs = DEFAULT_PARTNER_RETRY_BASE_MS) {
  return {
    jobId: partnerOrderJobId(purchaseId),
    attempts: PARTNER_ORDER_ATTEMPTS,
    backoff: { type: 'exponential', delay: retryBaseMs },
  } as const;
}
