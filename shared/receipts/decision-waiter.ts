import { QueueEvents, type Queue } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import { createRedis, type Redis } from '../redis/redis.js';
import type { ClaimedView } from './receipt-views.js';

interface ReviewEvents {
  queueEvents: QueueEvents;
  connection: Redis;
}

/**
 * Lets POST /receipts wait for a preparsed claim's automated review (decisions.md §9: up to
 * RECEIPT_DECISION_WAIT_MS) on BullMQ's job events, rather than asking PostgreSQL over and over.
 * Its connection (a blocking stream read) is opened on first use, so a process that never waits
 * never holds one.
 */
export class DecisionWaiter {
  private events: Promise<ReviewEvents> | undefined;

  constructor(
    private readonly reviews: Queue,
    private readonly redisUrl: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Queues a review with `queue` (its job, `jobId`, must not exist yet) and resolves when the job
   * ended or `ms` after the call, whichever comes first: to the decision the job returned, or
   * undefined when there is none to show (timed out, failed for good, or a manual review came
   * first) and the caller reads the claim. The job's end is listened for before the job is queued,
   * so it cannot end unheard: unlike BullMQ's waitUntilFinished, no round trip asks whether it
   * already ended. If the events cannot be read within `ms`, the review is queued all the same.
   */
  async wait(jobId: string, queue: () => Promise<unknown>, ms: number): Promise<ClaimedView | undefined> {
    const deadline = Date.now() + ms;
    const events = await this.listening(ms);
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
      // `failed` comes after the last attempt only (a retry is `waiting` or `delayed`): nothing to show.
      const onFailed = () => finish(undefined);
      const timer = setTimeout(() => finish(undefined), Math.max(0, deadline - Date.now()));
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

  /** The event reader, once it reads; undefined when it failed or is not ready within `ms` (Redis unreachable). */
  private async listening(ms: number): Promise<ReviewEvents | undefined> {
    const listening = (this.events ??= this.listen());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
    try {
      return await Promise.race([listening, late]);
    } catch (error) {
      // The next claim tries again.
      if (this.events === listening) {
        this.events = undefined;
        this.logger.warn({ err: error }, 'cannot read the review events: claims are answered without their decision');
      }
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Reads the reviews queue's event stream from its current end, by id: BullMQ's default start
   * (`$`) is the end at each read, so an event that arrived between two reads would be missed.
   * (Should Redis lose the stream, new ids follow the clock, so reading goes on after them.)
   */
  private async listen(): Promise<ReviewEvents> {
    const connection = createRedis(this.redisUrl, 'tally-review-events', { logger: this.logger });
    let queueEvents: QueueEvents | undefined;
    try {
      const [newest] = await connection.xrevrange(this.reviews.keys.events!, '+', '-', 'COUNT', 1);
      queueEvents = new QueueEvents(this.reviews.name, { connection, prefix: this.reviews.opts.prefix, lastEventId: newest?.[0] ?? '0-0' });
      // Each waiting claim listens for its job's end: as many listeners as claims in flight, no leak.
      queueEvents.setMaxListeners(0);
      queueEvents.on('error', (error) => this.logger.warn({ err: error }, 'reading the review events failed: retrying'));
      await queueEvents.waitUntilReady();
      return { queueEvents, connection };
    } catch (error) {
      await queueEvents?.close().catch(() => undefined);
      connection.disconnect();
      throw error;
    }
  }

  async close(): Promise<void> {
    const events = await this.events?.catch(() => undefined);
    if (!events) return;
    await events.queueEvents.close();
    await events.connection.quit();
  }
}
