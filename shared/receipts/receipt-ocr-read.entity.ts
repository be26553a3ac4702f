import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import { Receipt } from './receipt.entity.js';
import type { OcrLine } from './ocr/ocr-page.js';

/** A line as the record keeps it: its words are left out (see ReceiptOcrRead). */
export type OcrReadLine = Pick<OcrLine, 'text' | 'confidence' | 'box'>;

/**
 * What the OCR engine read off a claim's image (docs/receipts.md#the-ocr-read), kept so a reviewer
 * can see what the parse was made from (issue 22: "the stored receipt keeps the raw OCR lines").
 * One per receipt, keyed by it: written with the parse, in the same flush, so a retried job, which
 * finds the claim parsed and stops, never writes it twice. Lines keep their text, confidence and
 * box; their words are left out: they are the line's text split again with a box each, and made the
 * lines of the 8 shipped receipt images 2.8 to 5.6 KB of JSON each instead of 0.6 to 1.1 KB, past
 * the 2 KB row at which PostgreSQL starts to compress and move values out of line (TOAST), for
 * nothing a reviewer reads.
 */
export const ReceiptOcrRead = defineEntity({
  name: 'ReceiptOcrRead',
  tableName: 'receipt_ocr_read',
  properties: {
    receipt: p.oneToOne(Receipt).primary().owner().deleteRule('cascade'),
    // Indexed for the tenant's deletion, which cascades here.
    tenant: p.manyToOne(Tenant).deleteRule('cascade').index(),
    engine: p.string(),
    /** The page's, 0 to 1. */
    confidence: p.decimal('number').precision(5).scale(4),
    /** The image's size as the engine read it; boxes are in these pixels. */
    width: p.integer(),
    height: p.integer(),
    lines: p.json<OcrReadLine[]>(),
    readAt: p.datetime(),
  },
});

export type ReceiptOcrRead = InferEntity<typeof ReceiptOcrRead>;
