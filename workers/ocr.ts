import type { AppContext } from '../shared/context.js';
import { parsedReceiptColumns, queueReview } from '../shared/receipts/claim-service.js';
import { ImageFetcher, ImageFetchError } from '../shared/receipts/ocr/image-fetcher.js';
import { parseReceiptText } from '../shared/receipts/ocr/receipt-parser.js';
import { TextReader } from '../shared/receipts/ocr/text-reader.js';
import { Receipt } from '../shared/receipts/receipt.entity.js';
import type { ReceiptJob } from '../shared/receipts/receipt-job.js';
import type { JobHandler } from '../shared/queues/worker-runner.js';

/** The longest error text kept on a claim. */
const MAX_PARSE_ERROR = 500;

/**
 * `ocr` jobs (decisions.md §9): fetch a default-mode claim's image safely, read it with
 * tesseract.js, parse its fields, store them, then queue the automated review. An image that can
 * never be had (a private address, a PDF, too large) or still fails on the last attempt is recorded
 * as the claim's parse error, and the reviewer sends the claim to a person. A rerun of a parsed
 * claim only queues its review again (one job per claim: nothing twice).
 */
export function ocrHandler(context: AppContext): JobHandler {
  const fetcher = new ImageFetcher(context.config.fetchAllowPrivateAddresses);
  const reader = new TextReader();
  const handler: JobHandler = async (data, job) => {
    const { tenantId, receiptId } = data as ReceiptJob;
    const em = context.orm.em.fork();
    const receipt = await em.findOne(Receipt, { tenant: tenantId, id: receiptId });
    if (!receipt) return;
    if (!receipt.parsedAt) {
      try {
        const image = await fetcher.fetch(receipt.pictureUrl ?? '');
        const parsed = parseReceiptText(await reader.read(image.bytes));
        em.assign(receipt, { ...(await parsedReceiptColumns(context.products, tenantId, parsed, receipt.timezone)), imageHash: image.sha256, parsedAt: new Date() });
      } catch (error) {
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (!(error instanceof ImageFetchError && error.permanent) && !lastAttempt) throw error;
        em.assign(receipt, { parseError: String((error as Error).message).slice(0, MAX_PARSE_ERROR), parsedAt: new Date() });
      }
      await em.flush();
    }
    await queueReview(context.queues, tenantId, receiptId);
  };
  handler.close = () => reader.close();
  return handler;
}
