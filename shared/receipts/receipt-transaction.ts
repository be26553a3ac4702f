import type { Receipt } from './receipt.entity.js';
import { withoutAbsent } from '../platform/json/without-absent.js';

/**
 * docs/receipts.md#the-transaction: `$.transaction`, the normalised receipt rules read: numbers,
 * not `{value, confidence}`, and line items with their productId. Absent values are left out.
 */
export function receiptTransaction(receipt: Receipt, submitterAuthIdentifier: string): Record<string, unknown> {
  const transaction: Record<string, unknown> = {
    total: receipt.total,
    subtotal: receipt.subtotal,
    currency: receipt.currency,
    lineItems: receipt.lineItems,
    merchantName: receipt.merchantName,
    merchantLegalName: receipt.merchantLegalName,
    formatSlug: receipt.formatSlug,
    serviceDate: receipt.serviceDate,
    servedAt: receipt.servedAt?.toISOString(),
    locationIdentifier: receipt.locationIdentifier,
    submissionPosition: receipt.submissionPosition,
    metadata: receipt.metadata,
    submitter: { authIdentifier: submitterAuthIdentifier },
  };
  return withoutAbsent(transaction);
}
