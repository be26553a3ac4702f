/** Review verdicts and reasons (docs/receipts.md#records). */
export const RECEIPT_STATUSES = ['PENDING', 'AUTHORIZED', 'REJECTED'] as const;
export const REVIEW_VERDICTS = ['ABSTAIN', 'REJECT', 'AUTHORIZE'] as const;
export const REVIEW_REASONS = [
  'OTHER',
  'VERIFIED',
  'VALID_DATA',
  'FLAGGED_FOR_SPOT_CHECK',
  'DUPLICATE',
  'INVALID_MERCHANT',
  'INVALID_DATE',
  'INSUFFICIENT_DATA',
  'SUSPICIOUS',
  'SUSPICIOUS_CONTEXT',
  'RULE_ENGINE_THREW_ERROR',
  'INVALID_VENUE',
  'FORMAT_SUBMISSION_LIMIT_EXCEEDED',
  'MERCHANT_SUBMISSION_LIMIT_EXCEEDED',
  'NO_QUALIFYING_PRODUCTS',
  'INVALID_MULTIPAGE_CLAIM',
  'TEST',
] as const;

export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];
export type ReviewReason = (typeof REVIEW_REASONS)[number];
