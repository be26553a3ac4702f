import { Type, type Static } from 'typebox';
import { literalUnion } from '../platform/validation/literal-union.js';
import { RECEIPT_STATUSES, REVIEW_REASONS, REVIEW_VERDICTS } from '../rules/review-enums.js';
import type { Receipt } from './receipt.entity.js';
import type { Review } from './review.entity.js';

/** A review as the API answers it (docs/receipts.md#records). */
export const ReviewResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    verdict: literalUnion(REVIEW_VERDICTS),
    reason: literalUnion(REVIEW_REASONS),
    createdAt: Type.String({ format: 'date-time' }),
    isAutomated: Type.Boolean(),
    reviwer: Type.Union(
      [
        Type.Object({ authIssuer: Type.String(), authIdentifier: Type.String(), name: Type.Optional(Type.String()) }),
        Type.Null(),
      ],
      {
        description:
          'Who reviewed the receipt (null for an automated review); the field is spelled so for compatibility',
      },
    ),
    comment: Type.Union([Type.String(), Type.Null()], {
      description: "The reviewer's note; null when none, and once the member is erased",
    }),
    correctedTotal: Type.Union([Type.Number(), Type.Null()], {
      description: 'The total the reviewer read off the receipt; null when the review gave none',
    }),
    checks: Type.Optional(
      Type.Array(Type.Object({ check: Type.String(), passed: Type.Boolean(), detail: Type.Optional(Type.String()) }), {
        description: 'automated reviews: each check in order and what it found',
      }),
    ),
    ruleSetId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    ruleEngineResult: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  },
  { title: 'Review' },
);

/** POST /receipts' answer: the claim's status and its paramount review. */
export const ClaimedReceipt = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: literalUnion(RECEIPT_STATUSES),
    paramountReview: Type.Union([ReviewResource, Type.Null()]),
  },
  { title: 'ClaimedReceipt' },
);

export type ReviewView = Static<typeof ReviewResource>;
export type ClaimedView = Static<typeof ClaimedReceipt>;

/**
 * A review as docs/receipts.md#records shows it; `reviwer` is spelled so on purpose. An automated
 * review also shows what it was decided from (its checks and the rule engine's result).
 */
export function reviewView(review: Review): ReviewView {
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
export function claimedView(receipt: Pick<Receipt, 'id' | 'status'>, paramountReview: Review | null): ClaimedView {
  return {
    id: receipt.id,
    status: receipt.status,
    paramountReview: paramountReview ? reviewView(paramountReview) : null,
  };
}

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
