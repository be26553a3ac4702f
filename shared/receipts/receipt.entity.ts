import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';
import { RECEIPT_STATUSES } from '../rules/review-enums.js';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

/** A parsed line item (docs/receipts.md#records). */
export interface ReceiptLineItem {
  quantity?: number;
  description?: string;
  identifier?: string;
  unit?: string;
  unitPrice?: number;
  totalPrice?: number;
  metadata?: Record<string, unknown>;
  productId?: string;
  /** How sure the parser is of this line, 0 to 1. */
  confidence?: number;
}

export interface SubmissionPosition {
  latitude: number;
  longitude: number;
}

export interface ReceiptMetadata {
  source: string;
  campaignId?: string;
  key?: string;
}

/**
 * A claim for a receipt (docs/receipts.md#records). Parsed fields are empty until the
 * claim is parsed: at once for a preparsed claim, by the OCR worker for an image. Each field's
 * confidence is kept in `fieldConfidences` (0 to 1); `ocrConfidence` is the claim's as a whole.
 */
export const Receipt = defineEntity({
  name: 'Receipt',
  tableName: 'receipt',
  indexes: [
    { properties: ['tenant', 'createdAt'] },
    { properties: ['tenant', 'submitter', 'createdAt'] },
    // The DUPLICATE check looks claims up by these, which few claims share (a busy merchant's
    // claims share a date and a total by the thousand); only claims from an image have a hash.
    {
      name: 'receipt_image_hash_index',
      expression:
        'create index "receipt_image_hash_index" on "receipt" ("tenant_id", "image_hash") where "image_hash" is not null',
    },
    // Another photo of a receipt is found by its perceptual hash's Hamming distance, which no
    // index orders: this one finds a tenant's hashed claims without passing over other tenants',
    // and each is then read, as the check compares its status, date and total too.
    {
      name: 'receipt_perceptual_hash_index',
      expression:
        'create index "receipt_perceptual_hash_index" on "receipt" ("tenant_id") include ("perceptual_hash") where "perceptual_hash" is not null',
    },
    {
      name: 'receipt_barcode_index',
      expression:
        'create index "receipt_barcode_index" on "receipt" ("tenant_id", "barcode") where "barcode" is not null',
    },
    {
      name: 'receipt_transaction_id_index',
      expression:
        'create index "receipt_transaction_id_index" on "receipt" ("tenant_id", "transaction_id") where "transaction_id" is not null',
    },
    // The recovery sweep looks for claims waiting too long to be read or decided.
    {
      name: 'receipt_unparsed_index',
      expression: 'create index "receipt_unparsed_index" on "receipt" ("created_at") where "parsed_at" is null',
    },
    {
      name: 'receipt_undecided_index',
      expression:
        'create index "receipt_undecided_index" on "receipt" ("parsed_at") where "paramount_review_id" is null',
    },
  ],
  properties: {
    ...tenantOwned(),
    submitter: p.manyToOne(User).deleteRule('cascade'),
    status: p.enum([...RECEIPT_STATUSES]),
    /** Raised on every status change: orders the RECEIPT_REVIEWED events of one receipt. */
    statusVersion: p.integer().default(0),
    useParser: p.boolean(),
    /** When the image was read, or failed to be (`parseError`); preparsed claims are parsed on arrival. */
    parsedAt: p.datetime().nullable(),
    parseError: p.text().nullable(),
    /** Time spent fetching the image so far, over every attempt: a claim's fetches share one budget (IMAGE_FETCH_BUDGET_MS). */
    imageFetchMs: p.integer().default(0),
    /**
     * When the attempt fetching the image now began, stored before it fetches and cleared once its
     * time is added to imageFetchMs: an attempt that finds it set follows one cut short (a crash).
     */
    imageFetchStartedAt: p.datetime().nullable(),
    pictureUrl: p.text().nullable(),
    /** SHA-256 of the image's bytes, for the DUPLICATE check. */
    imageHash: p.string().nullable(),
    /** The image's perceptual hash (ocr/perceptual-hash.ts), for the DUPLICATE check's other photo of a receipt. */
    perceptualHash: p.string().columnType('bit(256)').nullable(),
    ocrConfidence: p.decimal('number').precision(5).scale(4).nullable(),
    fieldConfidences: p.json<Record<string, number>>(),
    timezone: p.string(),
    serviceDate: p.string().nullable(),
    serviceTime: p.string().nullable(),
    servedAt: p.datetime().nullable(),
    total: p.decimal('number').precision(14).scale(4).nullable(),
    subtotal: p.decimal('number').precision(14).scale(4).nullable(),
    correctedTotal: p.decimal('number').precision(14).scale(4).nullable(),
    barcode: p.string().nullable(),
    transactionId: p.string().nullable(),
    lineItems: p.json<ReceiptLineItem[]>(),
    locationIdentifier: p.string().nullable(),
    locationAddress: p.text().nullable(),
    submissionPosition: p.json<SubmissionPosition>().nullable(),
    formatSlug: p.string().nullable(),
    merchantName: p.string().nullable(),
    /** The company's legal name, when the receipt prints it beside the trading name that is `merchantName` (issue 32). */
    merchantLegalName: p.string().nullable(),
    language: p.string().nullable(),
    /** ISO 4217, upper case: read by the parser from the receipt's own evidence, or given in preparsed mode. */
    currency: p.string().length(3).nullable(),
    metadata: p.json<ReceiptMetadata>().nullable(),
    /** The review that set the status; null until one did. */
    paramountReviewId: p.uuid().nullable(),
    ...timestampProperties(),
  },
});

export type Receipt = InferEntity<typeof Receipt>;
