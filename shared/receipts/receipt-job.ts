import type { Queue } from 'bullmq';
import { Type, type Static } from 'typebox';

/** The payload of an `ocr` or `reviews` job: the claim to read or to decide. */
export const ReceiptJob = Type.Object({
  tenantId: Type.String({ format: 'uuid' }),
  receiptId: Type.String({ format: 'uuid' }),
});
export type ReceiptJob = Static<typeof ReceiptJob>;

/** The queues a claim is read and then decided from. */
export interface ReceiptQueues {
  ocr: Queue<ReceiptJob>;
  reviews: Queue<ReceiptJob>;
}

/** One job per claim and step, so queueing it again (a retry after a failure) adds nothing. */
export function receiptJobId(step: 'ocr' | 'review', receiptId: string): string {
  return `${step}-${receiptId}`;
}
