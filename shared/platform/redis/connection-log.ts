import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '../async/clock.js';
import type { Logger } from '../logging/logger.js';

/** Node and ioredis errors that mean "Redis is not reachable now", which ioredis retries on its own. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const CONNECTION_ERROR_MESSAGES = ['Connection is closed.', "Stream isn't writeable", 'connect ETIMEDOUT'];

/**
 * Whether `error` only says that a Redis connection is down (refused, reset, closed while a command
 * waited): the connection log reports those once per outage, so whoever receives such an error
 * (a BullMQ worker, queue or event reader) need not log it again.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: string };
  if (error.name === 'ConnectionClosedError' || (code && CONNECTION_ERROR_CODES.has(code))) return true;
  return CONNECTION_ERROR_MESSAGES.some((message) => error.message.includes(message));
}

/**
 * docs/operations.md#outages: a Redis outage is logged as one line per change of state for the
 * whole process, not one per connection and reconnect attempt (a process holds a dozen
 * connections, each retrying every few hundred milliseconds: hundreds of stack traces a minute).
 *
 * - `Redis connection lost` (warn): the first connection of the process dropped.
 * - `Redis is not answering: reconnecting` (warn): a reconnect attempt failed, so this is an
 *   outage and not a blip; it names the cause (ECONNREFUSED, ETIMEDOUT…).
 * - `Redis connection back` (info): every connection that was lost is ready again; how long it took.
 */
export class RedisConnectionLog {
  private readonly lost = new Set<Redis>();
  private outage: { since: number; reconnectingLogged: boolean } | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Reports `connection`'s changes of state; its errors are handled here (ioredis would print them to stderr). */
  track(connection: Redis, name: string): void {
    connection.on('error', (error: Error) => this.failed(connection, name, error));
    // Emitted only when ioredis will connect again: a connection closed on purpose emits `end` instead.
    connection.on('reconnecting', () => this.dropped(connection, name));
    connection.on('ready', () => this.ready(connection));
    connection.on('end', () => this.ended(connection));
  }

  private dropped(connection: Redis, name: string): void {
    if (this.lost.has(connection)) return;
    this.lost.add(connection);
    if (this.outage) return;
    this.outage = { since: this.clock.now(), reconnectingLogged: false };
    this.logger.warn({ connection: name }, 'Redis connection lost');
  }

  private failed(connection: Redis, name: string, error: Error): void {
    if (!isConnectionError(error)) {
      this.logger.warn({ err: error, connection: name }, 'Redis connection error');
      return;
    }
    // A connection that never was ready (made during the outage) is lost too.
    if (connection.status !== 'ready') this.dropped(connection, name);
    if (!this.outage || this.outage.reconnectingLogged) return;
    this.outage.reconnectingLogged = true;
    const { code } = error as { code?: string };
    this.logger.warn({ connection: name, cause: code ?? error.message }, 'Redis is not answering: reconnecting');
  }

  /** Closed for good (shutdown): it no longer counts towards the outage, and is not "back". */
  private ended(connection: Redis): void {
    this.lost.delete(connection);
    if (!this.lost.size) this.outage = undefined;
  }

  private ready(connection: Redis): void {
    if (!this.lost.delete(connection) || this.lost.size || !this.outage) return;
    const downMs = this.clock.now() - this.outage.since;
    this.outage = undefined;
    this.logger.info({ downMs }, 'Redis connection back');
  }
}
