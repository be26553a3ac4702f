import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import type { EntityManager } from '../platform/db/orm.js';
import { insertPrepared } from '../platform/db/prepared-statements.js';
import type { ProductCatalogues } from '../products/product-catalogue.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import type { User } from '../users/user.entity.js';
import type { DecisionWaiter } from './decision-waiter.js';
import { parsedColumns, type ParsedClaim } from './parsed-claim.js';
import { Receipt, type ReceiptMetadata, type SubmissionPosition } from './receipt.entity.js';
import { receiptJobId, type ReceiptQueues } from './receipt-job.js';
import type { ClaimedView } from './receipt-views.js';
import { tenantTimezone } from './review-settings.js';

interface ClaimCommon {
  submissionPosition?: SubmissionPosition;
  metadata?: ReceiptMetadata;
}

/** Default mode: an image the OCR worker reads. */
export interface ImageClaim extends ClaimCommon {
  useParser: true;
  pictureUrl: string;
}

/** Preparsed mode: the caller read the receipt. */
export interface PreparsedClaim extends ClaimCommon {
  useParser: false;
  pictureUrl?: string;
  parsed: ParsedClaim;
}

export interface ClaimDependencies {
  queues: ReceiptQueues;
  products: ProductCatalogues;
  decisions: DecisionWaiter;
  /** docs/receipts.md#claims: how long a preparsed claim's answer waits for its decision (RECEIPT_DECISION_WAIT_MS). */
  decisionWaitMs: number;
}

/**
 * POST /receipts: stores the claim as PENDING and queues its next step: reading the image (default
 * mode) or the automated review (preparsed mode, whose parse is stored at once, line items mapped
 * to the catalogue's products). Each step's job id is the claim's, so queueing it again adds nothing.
 */
export async function createClaim(
  em: EntityManager,
  deps: ClaimDependencies,
  tenant: Tenant,
  submitter: User,
  claim: ImageClaim | PreparsedClaim,
  id: string = randomUUID(),
): Promise<{ receiptId: string; decided?: ClaimedView }> {
  const timezone = tenantTimezone(tenant.configuration);
  const parsed = claim.useParser
    ? undefined
    : await parsedReceiptColumns(deps.products, tenant.id, claim.parsed, timezone);
  const now = new Date();
  // Inserted from plain data by a prepared statement, with no entity made: nothing reads the claim
  // back in this request, and building the ORM's insert cost the API more than the INSERT itself.
  await insertPrepared(em, Receipt, {
    id,
    tenant: tenant.id,
    submitter: submitter.id,
    status: 'PENDING',
    statusVersion: 0,
    useParser: claim.useParser,
    parsedAt: parsed ? now : null,
    parseError: null,
    pictureUrl: claim.pictureUrl ?? null,
    imageHash: null,
    timezone,
    submissionPosition: claim.submissionPosition ?? null,
    metadata: claim.metadata ?? null,
    paramountReviewId: null,
    correctedTotal: null,
    transactionId: null,
    formatSlug: null,
    ocrConfidence: null,
    fieldConfidences: {},
    lineItems: [],
    createdAt: now,
    updatedAt: now,
    ...parsed,
  });
  if (!claim.useParser) {
    // The answer's wait is here, with the queueing, as the waiter listens before the job exists.
    const decided = await deps.decisions.wait(
      receiptJobId('review', id),
      () => queueReview(deps.queues, tenant.id, id),
      deps.decisionWaitMs,
    );
    return { receiptId: id, decided };
  }
  await deps.queues.ocr.add('read', { tenantId: tenant.id, receiptId: id }, { jobId: receiptJobId('ocr', id) });
  return { receiptId: id };
}

export async function queueReview(
  queues: Pick<ReceiptQueues, 'reviews'>,
  tenantId: string,
  receiptId: string,
): Promise<Job> {
  return queues.reviews.add('review', { tenantId, receiptId }, { jobId: receiptJobId('review', receiptId) });
}

/** A parse as the receipt stores it, its line items mapped to the tenant's products. */
export async function parsedReceiptColumns(
  products: ProductCatalogues,
  tenantId: string,
  parsed: ParsedClaim,
  timezone: string,
) {
  const columns = parsedColumns(parsed, timezone);
  const catalogue = await products.forTenant(tenantId);
  return { ...columns, lineItems: catalogue.mapLineItems(columns.lineItems) };
}
