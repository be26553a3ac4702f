import type { Receipt } from './receipt.entity.js';
import type { Review } from './review.entity.js';

/**
 * A review as docs/receipts.md#records shows it; `reviwer` is spelled so on purpose. An automated
 * review also shows what it was decided from (its checks and the rule engine's result).
 */
export function reviewView(review: Review) {
  return {
    id: review.id,
    verdict: review.verdict,
    reason: review.reason,
    createdAt: review.createdAt.toISOString(),
    isAutomated: review.isAutomated,
    reviwer: review.reviewer ?? null,
    comment: review.comment ?? null,
    correctedTotal: review.correctedTotal ?? null,
    ...(review.isAutomated
      ? {
          checks: review.checks,
          ruleSetId: review.ruleSetId ?? null,
          ruleEngineResult: review.ruleEngineResult ?? null,
        }
      : {}),
  };
}

/** POST /receipts answers the claim's status and its paramount review, null until it is reviewed. */
export function claimedView(receipt: Pick<Receipt, 'id' | 'status'>, paramountReview: Review | null) {
  return {
    id: receipt.id,
    status: receipt.status,
    paramountReview: paramountReview ? reviewView(paramountReview) : null,
  };
}

export type ClaimedView = ReturnType<typeof claimedView>;

/** A receipt in full (docs/receipts.md#records); confidences are 0 to 1, shown as a string. */
export function receiptView(receipt: Receipt, paramountReview: Review | null, submitterAuthIdentifier: string) {
  return {
    id: receipt.id,
    status: receipt.status,
    paramountReview: paramountReview ? reviewView(paramountReview) : null,
    createdAt: receipt.createdAt.toISOString(),
    updatedAt: receipt.updatedAt.toISOString(),
    submitter: { authIdentifier: submitterAuthIdentifier },
    ocrConfidence: confidenceText(receipt.ocrConfidence),
    timezone: receipt.timezone,
    serviceDate: receipt.serviceDate ?? null,
    serviceTime: receipt.serviceTime ?? null,
    servedAt: receipt.servedAt?.toISOString() ?? null,
    total: receipt.total ?? null,
    subtotal: receipt.subtotal ?? null,
    correctedTotal: receipt.correctedTotal ?? null,
    currency: receipt.currency ?? null,
    barcode: receipt.barcode ?? null,
    transactionId: receipt.transactionId ?? null,
    lineItems: receipt.lineItems,
    pictureUrl: receipt.pictureUrl ?? null,
    locationIdentifier: receipt.locationIdentifier ?? null,
    locationAddress: receipt.locationAddress ?? null,
    submissionPosition: receipt.submissionPosition ?? null,
    formatSlug: receipt.formatSlug ?? null,
    merchantName: receipt.merchantName ?? null,
    merchantLegalName: receipt.merchantLegalName ?? null,
    language: receipt.language ?? null,
    metadata: receipt.metadata ?? null,
  };
}

/** A receipt as a list shows it (docs/receipts.md#records). */
export function receiptListItemView(receipt: Receipt) {
  return {
    id: receipt.id,
    createdAt: receipt.createdAt.toISOString(),
    updatedAt: receipt.updatedAt.toISOString(),
    status: receipt.status,
    notionallyServedAt: receipt.servedAt?.toISOString() ?? null,
    serviceDate: receipt.serviceDate ?? null,
    serviceTime: receipt.serviceTime ?? null,
    ocrConfidence: confidenceText(receipt.ocrConfidence),
    total: receipt.total ?? null,
    subtotal: receipt.subtotal ?? null,
    correctedTotal: receipt.correctedTotal ?? null,
    currency: receipt.currency ?? null,
    barcode: receipt.barcode ?? null,
  };
}

/** Until the claim is read there is no confidence: "0", as the document makes the field a required string. */
function confidenceText(confidence: number | null | undefined): string {
  return String(confidence ?? 0);
}
