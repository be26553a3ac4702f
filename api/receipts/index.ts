import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerClaimReceipt } from './claim-receipt.js';
import { registerGetReceipt } from './get-receipt.js';
import { registerGetReceiptOcr } from './get-receipt-ocr.js';
import { registerListReceipts } from './list-receipts.js';
import { registerListReviews } from './list-reviews.js';
import { registerReviewReceipt } from './review-receipt.js';

/** The receipts of docs/receipts.md#claims: claims, what OCR read off them, their automated and manual reviews. */
export function registerReceiptRoutes(app: App, context: AppContext): void {
  registerClaimReceipt(app, context);
  registerListReceipts(app, context);
  registerGetReceipt(app, context);
  registerGetReceiptOcr(app, context);
  registerReviewReceipt(app, context);
  registerListReviews(app, context);
}
