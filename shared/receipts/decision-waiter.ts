import { QueueEvents, type Job, type Queue } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import { queuePrefix } from '../queues/queue-factory.js';
import { createRedis, type Redis } from '../redis/redis.js';
import type { ClaimedView } from './receipt-views.js';

/**
 * Lets POST /receipts wait for a preparsed claim's automated review (decisions.md §9: up to
 * RECEIPT_DECISION_WAIT_MS) on BullMQ's job events, rather than asking PostgreSQL over and over.
 * Its connection (a blocking stream read) is opened on first use, so a process that never waits
 * never holds one.
 */
export class DecisionWaiter {
  private events: { queueEvents: QueueEvents; connection: Redis } | undefined;

  constructor(
    reviews: Queue,
    private readonly redisUrl: string,
    private readonly redisPrefix: string,
    private readonly logger: Logger,
  ) {
    // Each waiting claim listens on the queue for its close (BullMQ's waitUntilFinished): as many
    // listeners as claims in flight, which is no leak.
    reviews.setMaxListeners(0);
  }

  /**
   * Resolves when the review job ended or after `ms`, whichever comes first: to the decision the
   * job returned, or undefined when there is none to show (timed out, failed, or a manual review
   * came first) and the caller reads the claim.
   */
  async wait(job: Job, ms: number): Promise<ClaimedView | undefined> {
    if (!this.events) {
      const connection = createRedis(this.redisUrl, 'tally-review-events', { logger: this.logger });
      this.events = { connection, queueEvents: new QueueEvents('reviews', { connection, prefix: queuePrefix(this.redisPrefix, 'reviews') }) };
    }
    try {
      await this.events.queueEvents.waitUntilReady();
      return ((await job.waitUntilFinished(this.events.queueEvents, ms)) as ClaimedView | null) ?? undefined;
    } catch (error) {
      // Timed out, or the review failed and will be retried: the caller answers what is stored.
      this.logger.debug({ err: error, jobId: job.id }, 'answering before the automated review');
      return undefined;
    }
  }

  async close(): Promise<void> {
    if (!this.events) return;
    await this.events.queueEvents.close();
    await this.events.connection.quit();
  }
}
