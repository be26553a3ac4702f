import { QueueEvents, type Queue } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import { isConnectionError, type RedisConnectionLog } from '../redis/connection-log.js';
import { closeRedis, createRedis, type Redis } from '../redis/redis.js';

/** How long QUIT may take before the connection is dropped instead. */
const CLOSE_MS = 1000;

/**
 * Reads one queue's event stream on a connection of its own (a blocking stream read),
 * from the stream's end at the time it started, by id: BullMQ's default start (`$`) is the end at
 * each read, so an event that arrived between two reads would be missed. (Should Redis lose the
 * stream, new ids follow the clock, so reading goes on after them.)
 */
export class QueueEventReader {
  /** Resolves once events are read; rejects when the reader could not start (it is then closed). */
  readonly started: Promise<QueueEvents>;
  /** Set once `started` resolved. */
  queueEvents: QueueEvents | undefined;
  private readonly connection: Redis;
  private closing = false;
  /**
   * Rejects on close. Starting races it: ioredis does not settle the commands of a connection
   * disconnected while it waits to reconnect (redis/ioredis#2169), so they cannot be awaited.
   */
  private readonly closed: Promise<never>;
  private rejectClosed: (error: Error) => void = () => {};

  constructor(queue: Queue, redisUrl: string, connections: RedisConnectionLog, logger: Logger) {
    this.connection = createRedis(redisUrl, `tally-${queue.name}-events`, { connections });
    this.closed = new Promise<never>((_resolve, reject) => (this.rejectClosed = reject));
    this.closed.catch(() => undefined);
    this.started = this.start(queue, logger);
  }

  get isClosing(): boolean {
    return this.closing;
  }

  private async start(queue: Queue, logger: Logger): Promise<QueueEvents> {
    let queueEvents: QueueEvents | undefined;
    try {
      const [newest] = await Promise.race([
        this.connection.xrevrange(queue.keys.events!, '+', '-', 'COUNT', 1),
        this.closed,
      ]);
      queueEvents = new QueueEvents(queue.name, {
        connection: this.connection,
        prefix: queue.opts.prefix,
        lastEventId: newest?.[0] ?? '0-0',
      });
      // Each waiting request listens for its job's end: as many listeners as requests in flight, no leak.
      queueEvents.setMaxListeners(0);
      // A connection error is already in the log, once per outage (connection-log.ts).
      queueEvents.on('error', (error) => {
        if (!isConnectionError(error))
          logger.warn({ err: error, queue: queue.name }, 'reading the queue events failed: retrying');
      });
      await Promise.race([queueEvents.waitUntilReady(), this.closed]);
      this.queueEvents = queueEvents;
      return queueEvents;
    } catch (error) {
      this.connection.disconnect();
      // Not awaited: closing a QueueEvents that is not ready waits for its connection (see `closed`).
      void queueEvents?.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Stops reading. A reader still connecting (Redis unreachable: its commands wait for it without
   * end) is disconnected rather than waited for.
   */
  async close(): Promise<void> {
    this.closing = true;
    if (this.queueEvents) {
      await this.queueEvents.close();
      await closeRedis(this.connection, CLOSE_MS);
      return;
    }
    this.rejectClosed(new Error('closed before the queue events were read'));
    await this.started.catch(() => undefined);
  }
}
