import type { Clock } from '../../platform/async/clock.js';
import type { Config } from '../../platform/config/config.js';
import type { EntityManager, Orm } from '../../platform/db/orm.js';
import type { Logger } from '../../platform/logging/logger.js';
import type { ProductCatalogues } from '../../products/product-catalogue.js';
import { parsedReceiptColumns } from '../claim-service.js';
import { Receipt } from '../receipt.entity.js';
import { ImageFetcher, ImageFetchError, type FetchedImage } from './image-fetcher.js';
import { loadParseHints } from './parse-hints.js';
import { UnreadableImageError } from './prepare-image.js';
import { readReceipt } from './read-receipt.js';
import { ReceiptOcrRead } from '../receipt-ocr-read.entity.js';
import { submitterErased } from '../submitter-erased.js';
import type { OcrPage, TextReader } from './ocr-page.js';

/** The longest error text kept on a claim. */
const MAX_PARSE_ERROR = 500;

export interface ClaimReading {
  /** `clock` times the fetches against the claim's budget; the fetcher's timers should read the same. */
  context: {
    orm: Orm;
    products: ProductCatalogues;
    config: Pick<Config, 'imageFetchBudgetMs'>;
    logger: Logger;
    clock: Clock;
  };
  fetcher: Pick<ImageFetcher, 'fetch'>;
  reader: TextReader;
}

/**
 * Reads a default-mode claim (docs/receipts.md#ocr): fetches its image safely within the claim's
 * time budget, reads it with the OCR engine (a second, closer read when the first does not add
 * up: readReceipt), parses it with the tenant's known merchants as hints, and
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
  // Read again in a clean unit of work: a flush that failed leaves its changes pending, and they
  // must not be stored beside the error.
  const fail = async (error: unknown) => {
    em.clear();
    const unread = await em.findOne(Receipt, { tenant: tenantId, id: receiptId });
    if (!unread || unread.parsedAt) return;
    unread.parseError = parseErrorOf(error);
    unread.parsedAt = new Date();
    await em.flush();
  };
  const budget = { budgetMs: context.config.imageFetchBudgetMs, clock: context.clock };
  const image = await fetchWithinBudget(em, budget, fetcher, receipt).catch(async (error: unknown) => {
    if (!(error instanceof ImageFetchError && error.permanent) && !lastAttempt) throw error;
    await fail(error);
  });
  if (!image) return;
  try {
    const { page, parsed } = await readReceipt(reader, image.bytes, await loadParseHints(em, tenantId));
    const columns = await parsedReceiptColumns(context.products, tenantId, parsed, receipt.timezone);
    const parsedAt = new Date();
    // One transaction with the parse: a job run again finds the claim parsed and writes nothing.
    await em.transactional(async (tx) => {
      // eslint-disable-next-line no-restricted-syntax -- the parser's own columns, never a request body
      tx.assign(receipt, {
        ...columns,
        imageHash: image.sha256,
        perceptualHash: page.perceptualHash ?? null,
        parsedAt,
      });
      // The member's erasure locks their row; a read of theirs finished after it keeps no raw text.
      if (!(await submitterErased(tx, receipt))) tx.create(ReceiptOcrRead, ocrReadRecord(receipt, page, parsedAt));
    });
  } catch (error) {
    const unreadable = error instanceof UnreadableImageError;
    if (!lastAttempt && !unreadable) throw error;
    if (!unreadable)
      context.logger.error({ err: error, tenantId, receiptId }, 'a claim could not be read on its last attempt');
    await fail(error);
  }
}

/**
 * The error as the claim keeps it, shown to the tenant's admins on the review: why the image could
 * not be had, or only that it could not be read; any other failure's own text (a database's, an
 * internal host's) is the operator's, in the log.
 */
function parseErrorOf(error: unknown): string {
  return error instanceof ImageFetchError || error instanceof UnreadableImageError
    ? error.message.slice(0, MAX_PARSE_ERROR)
    : 'the image could not be read: the OCR engine or the parse failed on every attempt';
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

interface FetchBudget {
  budgetMs: number;
  clock: Clock;
}

/**
 * One attempt at the claim's image within what is left of its budget: decisions §9 gives an image
 * 10 s, and that is the claim's whole time for it, every attempt and redirect included, so a host
 * that never answers, trickles its bytes or redirects slowly holds an OCR slot for it once. The
 * time is kept on the claim's row, which every attempt reads however it was queued (a retry, the
 * recovery sweep's new job after Redis lost the old one): the attempt's start is stored before it
 * fetches and its duration added once it ends. One that finds a start stored follows an attempt
 * cut short (a crash): that one ran at most until now, and at most what was left to it, which is
 * charged. An attempt with nothing left fails for good, as does a timeout that spends the budget.
 */
async function fetchWithinBudget(
  em: EntityManager,
  { budgetMs, clock }: FetchBudget,
  fetcher: ClaimReading['fetcher'],
  receipt: Receipt,
): Promise<FetchedImage> {
  if (receipt.imageFetchStartedAt) {
    const cutShortMs = clock.now() - receipt.imageFetchStartedAt.getTime();
    receipt.imageFetchMs += Math.max(0, Math.min(cutShortMs, budgetMs - receipt.imageFetchMs));
    receipt.imageFetchStartedAt = null;
  }
  const leftMs = budgetMs - receipt.imageFetchMs;
  if (leftMs <= 0) {
    await em.flush();
    throw new ImageFetchError(
      `${receipt.pictureUrl}: the image did not arrive within ${budgetMs} ms over every attempt`,
      true,
    );
  }
  const started = clock.now();
  receipt.imageFetchStartedAt = new Date(started);
  await em.flush();
  const outcome = await fetcher.fetch(receipt.pictureUrl ?? '', leftMs).then(
    (image) => ({ image }),
    (error: unknown) => ({ error }),
  );
  receipt.imageFetchMs += Math.max(0, clock.now() - started);
  receipt.imageFetchStartedAt = null;
  await em.flush();
  if ('image' in outcome) return outcome.image;
  const { error } = outcome;
  if (error instanceof ImageFetchError && !error.permanent && receipt.imageFetchMs >= budgetMs) {
    throw new ImageFetchError(`${error.message}; the claim's ${budgetMs} ms for its image are spent`, true);
  }
  throw error;
}
