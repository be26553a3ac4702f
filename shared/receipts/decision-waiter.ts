import type { Queue, QueueEvents } from 'bullmq';
import { systemClock, type Clock } from '../platform/async/clock.js';
import type { Logger } from '../platform/logging/logger.js';
import type { RedisConnectionLog } from '../platform/redis/connection-log.js';
import type { ClaimedView } from './receipt-views.js';
import { ReviewEventReader } from './review-event-reader.js';

/**
 * Lets POST /receipts wait for a preparsed claim's automated review (docs/receipts.md#claims: up to
 * RECEIPT_DECISION_WAIT_MS) on BullMQ's job events, rather than asking PostgreSQL over and over.
 * Its event reader is started on first use, so a process that never waits never holds its
 * connection.
 */
export class DecisionWaiter {
  private reader: ReviewEventReader | undefined;
  /** A claim waited its whole time for the current reader to start. */
  private readerLate = false;

  constructor(
    private readonly reviews: Queue,
    private readonly redisUrl: string,
    private readonly connections: RedisConnectionLog,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Queues a review with `queue` (its job, `jobId`, must not exist yet) and resolves when the job
   * ended or `ms` after the call (while queueing is quick), whichever comes first: to the decision
   * the job returned, or undefined when there is none to show (timed out, failed for good, or a
   * manual review came first) and the caller reads the claim. The job's end is listened for before
   * the job is queued, so it cannot end unheard: unlike BullMQ's waitUntilFinished, no round trip
   * asks whether it already ended. If the events cannot be read, the review is queued all the same.
   */
  async wait(jobId: string, queue: () => Promise<unknown>, ms: number): Promise<ClaimedView | undefined> {
    const deadline = this.clock.now() + ms;
    const queueEvents = await this.listening(ms);
    if (!queueEvents) {
      await queue();
      return undefined;
    }
    let stopListening = () => {};
    // BullMQ also emits each event as `<event>:<jobId>`; its typings name only the plain events.
    const completed = `completed:${jobId}` as 'completed';
    const failed = `failed:${jobId}` as 'failed';
    const ended = new Promise<ClaimedView | undefined>((resolve) => {
      const onCompleted = ({ returnvalue }: { returnvalue: unknown }) =>
        finish((returnvalue as ClaimedView | null) ?? undefined);
      // `failed` comes after the last attempt only (a retry is `waiting` or `delayed`): nothing to show.
      const onFailed = () => finish(undefined);
      const cancelTimer = this.clock.after(Math.max(0, deadline - this.clock.now()), () => finish(undefined));
      const finish = (decision: ClaimedView | undefined) => {
        stopListening();
        resolve(decision);
      };
      stopListening = () => {
        cancelTimer();
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
   * The event reader, once it reads; undefined when it failed (the next claim starts another) or
   * is not reading within `ms`. Once one claim waited its whole `ms` for a reader that does not
   * start (Redis unreachable), later claims do not wait for it: they are queued and answered at
   * once, until it reads.
   */
  private async listening(ms: number): Promise<QueueEvents | undefined> {
    const reader = (this.reader ??= this.startReading());
    if (reader.queueEvents) return reader.queueEvents;
    if (this.readerLate) return undefined;
    let cancelTimer = () => {};
    const late = new Promise<undefined>((resolve) => (cancelTimer = this.clock.after(ms, () => resolve(undefined))));
    try {
      const queueEvents = await Promise.race([reader.started, late]);
      if (!queueEvents && !this.readerLate && this.reader === reader) {
        this.readerLate = true;
        this.logger.warn(
          'the review events are not readable yet: claims are answered without their decision until they are',
        );
      }
      return queueEvents;
    } catch {
      return undefined;
    } finally {
      cancelTimer();
    }
  }

  private startReading(): ReviewEventReader {
    const reader = new ReviewEventReader(this.reviews, this.redisUrl, this.connections, this.logger);
    this.readerLate = false;
    reader.started.then(
      () => {
        if (this.reader !== reader || !this.readerLate) return;
        this.readerLate = false;
        this.logger.info('the review events are readable: claims wait for their decision again');
      },
      (error: unknown) => {
        if (this.reader !== reader) return;
        this.reader = undefined;
        if (!reader.isClosing)
          this.logger.warn({ err: error }, 'cannot read the review events: claims are answered without their decision');
      },
    );
    return reader;
  }

  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = undefined;
    await reader?.close();
  }
}
