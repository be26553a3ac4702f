import { DelayedError, type Job } from 'bullmq';
import { TtlCache } from '../shared/cache/ttl-cache.js';
import type { AppContext } from '../shared/context.js';
import { parsedReceiptColumns, queueReview } from '../shared/receipts/claim-service.js';
import { ImageFetcher, ImageFetchError, type FetchedImage } from '../shared/receipts/ocr/image-fetcher.js';
import { parseReceiptText } from '../shared/receipts/ocr/receipt-parser.js';
import { TextReader } from '../shared/receipts/ocr/text-reader.js';
import { Receipt } from '../shared/receipts/receipt.entity.js';
import type { ReceiptJob } from '../shared/receipts/receipt-job.js';
import type { JobHandler } from '../shared/queues/worker-runner.js';

/** The longest error text kept on a claim. */
const MAX_PARSE_ERROR = 500;

/** OCR jobs one tenant may have running in one worker process; the rest wait their turn, so one tenant's slow images cannot hold every slot. */
export const MAX_OCR_JOBS_PER_TENANT = 4;

/**
 * How long a job over its tenant's share waits before it asks again: this at first, doubling each
 * time it is turned away, up to the most. A backlog of a tenant's claims cycles through the queue
 * a few times a second, not hundreds.
 */
const TENANT_TURN_DELAY_MS = 500;
const MAX_TENANT_TURN_DELAY_MS = 10_000;

/**
 * `ocr` jobs (decisions.md §9): fetch a default-mode claim's image safely, read it with
 * tesseract.js, parse its fields, store them, then queue the automated review. An image that can
 * never be had (a private address, a PDF, too large), whose fetches used up the claim's time
 * budget, or that still fails on the last attempt is recorded as the claim's parse error, and the
 * reviewer sends the claim to a person. A rerun of a parsed claim only queues its review again
 * (one job per claim: nothing twice).
 */
export function ocrHandler(context: AppContext): JobHandler {
  const fetcher = new ImageFetcher(context.config.fetchAllowPrivateAddresses);
  const reader = new TextReader();
  const running = new Map<string, number>();
  /** Job id → how often this process has turned it away lately. */
  const turnedAway = new TtlCache<number>(5 * 60_000);
  const handler: JobHandler = async (data, job, token) => {
    const { tenantId, receiptId } = data as ReceiptJob;
    const mine = running.get(tenantId) ?? 0;
    if (mine >= MAX_OCR_JOBS_PER_TENANT && token) {
      // Back in the queue without spending an attempt: another tenant's claim takes the slot.
      const times = turnedAway.get(job.id!) ?? 0;
      turnedAway.set(job.id!, times + 1);
      await job.moveToDelayed(Date.now() + Math.min(MAX_TENANT_TURN_DELAY_MS, TENANT_TURN_DELAY_MS * 2 ** times), token);
      throw new DelayedError();
    }
    turnedAway.delete(job.id!);
    running.set(tenantId, mine + 1);
    try {
      await readClaim(context, fetcher, reader, job, tenantId, receiptId);
    } finally {
      const left = (running.get(tenantId) ?? 1) - 1;
      if (left) running.set(tenantId, left);
      else running.delete(tenantId);
    }
    await queueReview(context.queues, tenantId, receiptId);
  };
  handler.close = () => reader.close();
  return handler;
}

async function readClaim(context: AppContext, fetcher: ImageFetcher, reader: TextReader, job: Job, tenantId: string, receiptId: string): Promise<void> {
  const em = context.orm.em.fork();
  const receipt = await em.findOne(Receipt, { tenant: tenantId, id: receiptId });
  if (!receipt || receipt.parsedAt) return;
  const fail = async (error: unknown) => {
    receipt.parseError = String((error as Error).message).slice(0, MAX_PARSE_ERROR);
    receipt.parsedAt = new Date();
    await em.flush();
  };
  const image = await fetchWithinBudget(context, fetcher, job, receipt).catch(async (error: unknown) => {
    await em.flush(); // the time spent, whatever comes next
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (!(error instanceof ImageFetchError && error.permanent) && !lastAttempt) throw error;
    await fail(error);
  });
  if (!image) return;
  try {
    const parsed = parseReceiptText(await reader.read(image.bytes));
    em.assign(receipt, { ...(await parsedReceiptColumns(context.products, tenantId, parsed, receipt.timezone)), imageHash: image.sha256, parsedAt: new Date() });
    await em.flush();
  } catch (error) {
    if (job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
    await fail(error);
  }
}

/**
 * One attempt at the claim's image, within what is left of its time budget, counting the time it
 * took onto the receipt. An attempt with no time left is a permanent failure: a host that trickles
 * bytes gets the budget once, not ten seconds per attempt.
 */
async function fetchWithinBudget(context: AppContext, fetcher: ImageFetcher, job: Job, receipt: Receipt): Promise<FetchedImage> {
  const left = context.config.imageFetchBudgetMs - receipt.imageFetchMs;
  if (left <= 0) throw new ImageFetchError(`${receipt.pictureUrl}: the image did not arrive within ${context.config.imageFetchBudgetMs} ms over ${job.attemptsMade} attempts`, true);
  const started = Date.now();
  try {
    return await fetcher.fetch(receipt.pictureUrl ?? '', left);
  } catch (error) {
    receipt.imageFetchMs += Date.now() - started;
    if (error instanceof ImageFetchError && !error.permanent && receipt.imageFetchMs >= context.config.imageFetchBudgetMs) {
      throw new ImageFetchError(`${error.message}; the claim's ${context.config.imageFetchBudgetMs} ms for its image are spent`, true);
    }
    throw error;
  }
}
