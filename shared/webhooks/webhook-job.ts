import type { Queue } from 'bullmq';
import { Type, type Static } from 'typebox';

/** The payload of one `webhooks` job: a delivery to attempt. */
export const WebhookJob = Type.Object({ deliveryId: Type.String({ format: 'uuid' }) });
export type WebhookJob = Static<typeof WebhookJob>;

/** The queue webhook deliveries are attempted from. */
export interface WebhookQueue {
  webhooks: Queue<WebhookJob>;
}

/** 1 attempt and 10 retries, doubling from the base delay. */
const WEBHOOK_ATTEMPTS = 11;

/**
 * docs/events.md#webhooks: retried with backoff for 24 hours. BullMQ's exponential backoff waits
 * base × 2^(n−1) before retry n; ten retries from a base of 84.5 s add up to 24 hours.
 */
const DEFAULT_WEBHOOK_RETRY_BASE_MS = Math.round((24 * 3600 * 1000) / (2 ** (WEBHOOK_ATTEMPTS - 1) - 1));

/** A delivery job's options: an id of its own (queued again, it is not added twice), and its attempts doubling from `retryBaseMs`. */
export function deliveryJobOptions(deliveryId: string, retryBaseMs = DEFAULT_WEBHOOK_RETRY_BASE_MS) {
  return {
    jobId: `delivery-${deliveryId}`,
    attempts: WEBHOOK_ATTEMPTS,
    backoff: { type: 'exponential', delay: retryBaseMs },
  } as const;
}
