import { DelayedError } from 'bullmq';
import { PerKeyLimit } from '../shared/platform/async/per-key-limit.js';
import { TtlCache } from '../shared/platform/cache/ttl-cache.js';
import type { AppContext } from '../shared/context.js';
import { queueReview } from '../shared/receipts/claim-service.js';
import { ImageFetcher } from '../shared/receipts/ocr/image-fetcher.js';
import { createTextReader } from '../shared/receipts/ocr/create-reader.js';
import { readClaim } from '../shared/receipts/ocr/read-claim.js';
import type { JobHandler } from '../shared/job-catalog.js';
import { isLastAttempt } from '../shared/platform/queues/worker-runner.js';

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
 * `ocr` jobs: read a default-mode claim (read-claim.ts), then queue its automated review. A rerun
 * of a read claim only queues its review again (one job per claim: nothing twice). Each tenant
 * gets a share of the process's slots.
 */
export function ocrHandler(context: AppContext): JobHandler<'ocr'> {
  const reading = {
    context,
    fetcher: new ImageFetcher(context.config.fetchAllowPrivateAddresses, context.clock),
    reader: createTextReader(context.config.ocrEngine),
  };
  const running = new PerKeyLimit(MAX_OCR_JOBS_PER_TENANT);
  /** Job id → how often this process has turned it away lately. */
  const turnedAway = new TtlCache<number>(5 * 60_000);
  const handler: JobHandler<'ocr'> = async (data, job, token) => {
    const { tenantId, receiptId } = data;
    if (token && !running.tryEnter(tenantId)) {
      // Back in the queue without spending an attempt: another tenant's claim takes the slot.
      const times = turnedAway.get(job.id!) ?? 0;
      turnedAway.set(job.id!, times + 1);
      await job.moveToDelayed(
        Date.now() + Math.min(MAX_TENANT_TURN_DELAY_MS, TENANT_TURN_DELAY_MS * 2 ** times),
        token,
      );
      throw new DelayedError();
    }
    turnedAway.delete(job.id!);
    try {
      await readClaim(reading, tenantId, receiptId, isLastAttempt(job));
    } finally {
      if (token) running.leave(tenantId);
    }
    await queueReview(context.queues, tenantId, receiptId);
  };
  handler.close = () => reading.reader.close();
  return handler;
}
