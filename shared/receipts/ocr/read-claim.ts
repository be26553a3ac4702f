import type { AppContext } from '../../context.js';
import { parsedReceiptColumns } from '../claim-service.js';
import { Receipt } from '../receipt.entity.js';
import { ImageFetcher, ImageFetchError, type FetchedImage } from './image-fetcher.js';
import { loadParseHints } from './parse-hints.js';
import { parseReceipt } from './parse/parse-receipt.js';
import { ReceiptOcrRead } from '../receipt-ocr-read.entity.js';
import type { OcrPage, TextReader } from './ocr-page.js';

/** The longest error text kept on a claim. */
const MAX_PARSE_ERROR = 500;

export interface ClaimReading {
  context: Pick<AppContext, 'orm' | 'products' | 'config'>;
  fetcher: ImageFetcher;
  reader: TextReader;
}

/**
 * Reads a default-mode claim (docs/receipts.md#ocr): fetches its image safely within the claim's
 * time budget, reads it with tesseract.js, parses it with the tenant's known merchants as hints, and
 * stores its fields with what was read (the OCR read), in one flush. An image that can never be
 * had (a private address, a PDF, too large), whose fetches spent the budget, or that still fails on
 * the `lastAttempt` is stored as the claim's parse error, and the reviewer sends the claim to a
 * person; anything else is thrown for a retry. A claim read already is left as it is.
 */
export async function readClaim(
  { context, fetcher, reader }: ClaimReading,
  tenantId: string,
  receiptId: string,
  lastAttempt: boolean,
): Promise<void> {
  const em = context.orm.em.fork();
  const receipt = await em.findOne(Receipt, { tenant: tenantId, id: receiptId });
  if (!receipt || receipt.parsedAt) return;
  const fail = async (error: unknown) => {
    receipt.parseError = String((error as Error).message).slice(0, MAX_PARSE_ERROR);
    receipt.parsedAt = new Date();
    await em.flush();
  };
  const image = await fetchWithinBudget(context.config.imageFetchBudgetMs, fetcher, receipt).catch(
    async (error: unknown) => {
      await em.flush(); // the time spent, whatever comes next
      if (!(error instanceof ImageFetchError && error.permanent) && !lastAttempt) throw error;
      await fail(error);
    },
  );
  if (!image) return;
  try {
    const page = await reader.readText(image.bytes);
    const parsed = parseReceipt(page, await loadParseHints(em, tenantId));
    const columns = await parsedReceiptColumns(context.products, tenantId, parsed, receipt.timezone);
    const parsedAt = new Date();
    // eslint-disable-next-line no-restricted-syntax -- the parser's own columns, never a request body
    em.assign(receipt, { ...columns, imageHash: image.sha256, parsedAt });
    // One transaction with the parse: a job run again finds the claim parsed and writes nothing.
    em.create(ReceiptOcrRead, ocrReadRecord(receipt, page, parsedAt));
    await em.flush();
  } catch (error) {
    if (!lastAttempt) throw error;
    await fail(error);
  }
}

/** The page as the claim's OCR read keeps it: its lines without their words (receipt-ocr-read.entity.ts). */
function ocrReadRecord(receipt: Receipt, page: OcrPage, readAt: Date) {
  return {
    receipt,
    tenant: receipt.tenant,
    engine: page.engine,
    confidence: Math.min(1, Math.max(0, page.confidence)),
    width: page.width,
    height: page.height,
    lines: page.lines.map(({ text, confidence, box }) => ({ text, confidence, box })),
    readAt,
  };
}

/**
 * One attempt at the claim's image, within what is left of its time budget, counting the time it
 * took onto the receipt. An attempt with no time left is a permanent failure: a host that trickles
 * bytes gets the budget once, not ten seconds per attempt.
 */
async function fetchWithinBudget(budgetMs: number, fetcher: ImageFetcher, receipt: Receipt): Promise<FetchedImage> {
  const left = budgetMs - receipt.imageFetchMs;
  if (left <= 0)
    throw new ImageFetchError(
      `${receipt.pictureUrl}: the image did not arrive within ${budgetMs} ms over every attempt`,
      true,
    );
  const started = Date.now();
  try {
    return await fetcher.fetch(receipt.pictureUrl ?? '', left);
  } catch (error) {
    receipt.imageFetchMs += Date.now() - started;
    if (error instanceof ImageFetchError && !error.permanent && receipt.imageFetchMs >= budgetMs) {
      throw new ImageFetchError(`${error.message}; the claim's ${budgetMs} ms for its image are spent`, true);
    }
    throw error;
  }
}
