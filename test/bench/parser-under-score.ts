import type { OcrPage } from '../../shared/receipts/ocr/ocr-page.js';
import { parseReceipt } from '../../shared/receipts/ocr/parse/parse-receipt.js';
import type { ParsedClaim } from '../../shared/receipts/parsed-claim.js';

export type ParseReceipt = (page: OcrPage) => ParsedClaim;

/**
 * The parser the scorer measures: the one the OCR worker runs (read-claim.ts). Named here only, so
 * a new parser is scored by changing this one line.
 */
export const parserUnderScore: ParseReceipt = (page) => parseReceipt(page);
