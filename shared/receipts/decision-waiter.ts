import { QueueEvents, type Queue } from 'bullmq';
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
  private events: Promise<{ queueEvents: QueueEvents; connection: Redis }> | undefined;

  constructor(
    private readonly reviews: Queue,
    private readonly redisUrl: string,
    private readonly redisPrefix: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Queues a review with `queue` (its job, `jobId`, must not exist yet) and resolves when the job
   * ended or after `ms`, whichever comes first: to the decision the job returned, or undefined when
   * there is none to show (timed out, failed, or a manual review came first) and the caller reads
   * the claim. The job's end is listened for before the job is queued, so it cannot end unheard:
   * unlike BullMQ's waitUntilFinished, no round trip asks whether it already ended.
   */
  async wait(jobId: string, queue: () => Promise<unknown>, ms: number): Promise<ClaimedView | undefined> {
    const listening = (this.events ??= this.listen());
    const events = await listening.catch((error: unknown) => {
      // Not listening is no reason to leave the claim unqueued: it is answered as stored, and the
      // next claim tries again.
      if (this.events === listening) {
        this.events = undefined;
        this.logger.warn({ err: error }, 'cannot read the review events: answering claims without their decision');
      }
      return undefined;
    });
    if (!events) {
      await queue();
      return undefined;
    }
    const { queueEvents } = events;
    let stopListening = () => {};
    // BullMQ also emits each event as `<event>:<jobId>`; its typings name only the plain events.
    const completed = `completed:${jobId}` as 'completed';
    const failed = `failed:${jobId}` as 'failed';
    const ended = new Promise<ClaimedView | undefined>((resolve) => {
      const onCompleted = ({ returnvalue }: { returnvalue: unknown }) => finish((returnvalue as ClaimedView | null) ?? undefined);
      // Failed, to be retried: the caller answers what is stored.
      const onFailed = () => finish(undefined);
      const timer = setTimeout(() => finish(undefined), ms);
      const finish = (decision: ClaimedView | undefined) => {
        stopListening();
        resolve(decision);
      };
      stopListening = () => {
        clearTimeout(timer);
        queueEvents.off(completed, onCompleted);
        queueEvents.off(failed, onFailed);
      };
      queueEvents.on(completed, onCompleted);
      queueEvents.on(failed, onFailed);
    });
    try {
      await queue();
    } catch (error) {
      stopListening();
      throw error;
    }
    return ended;
  }

  /**
   * Reads the reviews queue's event stream from its current end, by id: BullMQ's default start
   * (`$`) is the end at each read, so an event that arrived between two reads would be missed.
   */
  private async listen() {
    const connection = createRedis(this.redisUrl, 'tally-review-events', { logger: this.logger });
    let newest: string | undefined;
    try {
      newest = (await connection.xrevrange(this.reviews.keys.events!, '+', '-', 'COUNT', 1))[0]?.[0];
    } catch (error) {
      connection.disconnect();
      throw error;
    }
    const queueEvents = new QueueEvents('reviews', { connection, prefix: queuePrefix(this.redisPrefix, 'reviews'), lastEventId: newest ?? '0-0' });
    // Each waiting claim listens for its job's end: as many listeners as claims in flight, no leak.
    queueEvents.setMaxListeners(0);
    queueEvents.on('error', (error) => this.logger.warn({ err: error }, 'reading the review events failed: retrying'));
    await queueEvents.waitUntilReady();
    return { queueEvents, connection };
  }

  async close(): Promise<void> {
    const events = await this.events?.catch(() => undefined);
    if (!events) return;
    await events.queueEvents.close();
    await events.connection.quit();
  }
}
