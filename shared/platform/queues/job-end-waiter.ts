import type { Queue, QueueEvents } from 'bullmq';
import { systemClock, type Clock } from '../async/clock.js';
import type { Logger } from '../logging/logger.js';
import type { RedisConnectionLog } from '../redis/connection-log.js';
import { QueueEventReader } from './queue-event-reader.js';

/** How the log names what is waited for: `the review events`, `claims`, `decision`. */
export interface WaitNames {
  events: string;
  waiters: string;
  outcome: string;
}

/**
 * Lets a request wait a bounded time for the job it queued to end (a claim's automated review,
 * docs/receipts.md#claims; a partner order's confirmation, docs/rewards.md#partner-products) on
 * BullMQ's job events, rather than asking PostgreSQL over and over. Its event reader is started on
 * first use, so a process that never waits never holds its connection.
 */
export class JobEndWaiter<Result> {
  private reader: QueueEventReader | undefined;
  /** A request waited its whole time for the current reader to start. */
  private readerLate = false;

  constructor(
    private readonly queue: Queue,
    private readonly redisUrl: string,
    private readonly connections: RedisConnectionLog,
    private readonly logger: Logger,
    private readonly names: WaitNames,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Queues a job with `queue` (its job, `jobId`, must not exist yet) and resolves when the job
   * ended or `ms` after the call (while queueing is quick), whichever comes first: to what the job
   * returned, or undefined when there is none to show (timed out, failed for good, or the job
   * returned null) and the caller reads the stored outcome. The job's end is listened for before
   * the job is queued, so it cannot end unheard: unlike BullMQ's waitUntilFinished, no round trip
   * asks whether it already ended. If the events cannot be read, the job is queued all the same.
   */
  async wait(jobId: string, queue: () => Promise<unknown>, ms: number): Promise<Result | undefined> {
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
    const ended = new Promise<Result | undefined>((resolve) => {
      const onCompleted = ({ returnvalue }: { returnvalue: unknown }) =>
        finish((returnvalue as Result | null) ?? undefined);
      // `failed` comes after the last attempt only (a retry is `waiting` or `delayed`): nothing to show.
      const onFailed = () => finish(undefined);
      const cancelTimer = this.clock.after(Math.max(0, deadline - this.clock.now()), () => finish(undefined));
      const finish = (decision: Result | undefined) => {
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
   * The event reader, once it reads; undefined when it failed (the next request starts another) or
   * is not reading within `ms`. Once one request waited its whole `ms` for a reader that does not
   * start (Redis unreachable), later requests do not wait for it: they are queued and answered at
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
        const { events, waiters, outcome } = this.names;
        this.logger.warn(
          `${events} are not readable yet: ${waiters} are answered without their ${outcome} until they are`,
        );
      }
      return queueEvents;
    } catch {
      return undefined;
    } finally {
      cancelTimer();
    }
  }

  private startReading(): QueueEventReader {
    const { events, waiters, outcome } = this.names;
    const reader = new QueueEventReader(this.queue, this.redisUrl, this.connections, this.logger);
    this.readerLate = false;
    reader.started.then(
      () => {
        if (this.reader !== reader || !this.readerLate) return;
        this.readerLate = false;
        this.logger.info(`${events} are readable: ${waiters} wait for their ${outcome} again`);
      },
      (error: unknown) => {
        if (this.reader !== reader) return;
        this.reader = undefined;
        if (!reader.isClosing)
          this.logger.warn({ err: error }, `cannot read ${events}: ${waiters} are answered without their ${outcome}`);
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
