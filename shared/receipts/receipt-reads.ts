import type { EntityManager } from '../platform/db/orm.js';
import { findTenantRecord, isUuid } from '../platform/db/tenant-record.js';
import { NotFoundError } from '../platform/errors/app-errors.js';
import type { User } from '../users/user.entity.js';
import { Receipt } from './receipt.entity.js';
import { ReceiptOcrRead } from './receipt-ocr-read.entity.js';
import { claimedView, receiptView, type ClaimedView } from './receipt-views.js';
import { Review } from './review.entity.js';

/** A claim's answer when no decision came with the wait: its status and paramount review as stored now. */
export async function claimAsStored(em: EntityManager, tenantId: string, receiptId: string): Promise<ClaimedView> {
  const receipt = await em.findOneOrFail(
    Receipt,
    { tenant: tenantId, id: receiptId },
    { fields: ['status', 'paramountReviewId'] },
  );
  return claimedView(receipt, await paramountReviewOf(em, tenantId, receipt));
}

/** GET /receipts/{id}: the tenant's receipt with its paramount review and submitter, or 404. */
export async function readReceiptView(
  em: EntityManager,
  tenantId: string,
  id: string,
): Promise<ReturnType<typeof receiptView>> {
  const receipt = await findTenantRecord(em, Receipt, tenantId, id, 'receipt', ['submitter']);
  return receiptView(
    receipt,
    await paramountReviewOf(em, tenantId, receipt),
    (receipt.submitter as User).authIdentifier,
  );
}

/**
 * GET /receipts/{id}/ocr (docs/receipts.md#the-ocr-read): what the engine read off the tenant's
 * receipt, found in one query; when there is no read, the 404 says why.
 */
export async function receiptOcrRead(em: EntityManager, tenantId: string, id: string) {
  const read = isUuid(id) ? await em.findOne(ReceiptOcrRead, { tenant: tenantId, receipt: id }) : null;
  if (!read) throw new NotFoundError(await whyNoOcrRead(em, tenantId, id));
  return {
    engine: read.engine,
    confidence: read.confidence,
    width: read.width,
    height: read.height,
    readAt: read.readAt.toISOString(),
    lines: read.lines,
  };
}

async function whyNoOcrRead(em: EntityManager, tenantId: string, id: string): Promise<string> {
  const receipt = await findTenantRecord(em, Receipt, tenantId, id, 'receipt');
  if (!receipt.useParser) return `Receipt "${id}" was preparsed: its caller read it, so no OCR read is kept`;
  if (!receipt.parsedAt) return `Receipt "${id}" is not read yet: ask again once it is`;
  if (receipt.parseError) return `Receipt "${id}" could not be read: ${receipt.parseError}`;
  return `No OCR read is kept for receipt "${id}": it was read before reads were kept, or erased with its member's personal data`;
}

/** Follow-up reads carry the tenant too (docs/architecture.md#rules-the-code-keeps). */
function paramountReviewOf(
  em: EntityManager,
  tenantId: string,
  receipt: Pick<Receipt, 'paramountReviewId'>,
): Promise<Review | null> {
  return receipt.paramountReviewId
    ? em.findOne(Review, { tenant: tenantId, id: receipt.paramountReviewId })
    : Promise.resolve(null);
}
