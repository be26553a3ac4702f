import { DriverException } from '@mikro-orm/core';
import {
  AppError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
} from '../errors/app-errors.js';

/** What PostgreSQL tells about a failure, whether raised through MikroORM or a raw query. */
interface PostgresFailure {
  code: string;
  detail?: string;
  column?: string;
  message: string;
}

/**
 * The one place where a database failure becomes a client-facing error (docs/api-conventions.md#errors), by its
 * SQLSTATE, so a failure reads the same from `em.flush()` (MikroORM's DriverException keeps the
 * code) and from a raw `connection.execute()` (pg's DatabaseError). Anything not listed stays
 * unknown and is answered as a 500 by the caller.
 */
export function translateDatabaseError(error: unknown): AppError | undefined {
  const unavailable = unavailableReason(error);
  if (unavailable) {
    // The cause logged is the reason alone: a driver error's message quotes the query and its values.
    const cause = Object.assign(new Error(unavailable), {
      name: 'DatabaseUnavailable',
      code: (error as { code?: unknown }).code,
    });
    return new ServiceUnavailableError('The database is unavailable: retry shortly', {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      cause,
    });
  }
  const failure = postgresFailure(error);
  if (!failure) return undefined;
  switch (failure.code) {
    case '23505': {
      const fields = conflictingFields(failure);
      const named = fields.join(', ') || 'values';
      return new ConflictError(`A record with the same ${named} already exists`, {
        data: { explanation: `Change ${fields.join(', ') || 'the unique fields'} and try again`, fields },
      });
    }
    case '23503':
      return new NotFoundError('A record this request refers to does not exist');
    case '23502':
      return new BadRequestError(
        `A required value is missing${failure.column ? `: ${camelCase(failure.column)}` : ''}`,
      );
    case '08P01':
      // What pg's protocol refuses of a value from the query: a NUL character (bodies and paths are checked before).
      return new BadRequestError('A value holds a NUL character, which cannot be stored or searched for');
    case '22003':
      return new BadRequestError('A number is out of the range this field takes');
    case '22001':
      // A string longer than its column: validation should have refused it first, but a client's mistake is no 500.
      return new BadRequestError('A value is longer than its field takes');
    case '23514':
      return new ConflictError('The change would break a rule of the data (for example a balance below zero)');
    case '40001':
    case '40P01':
      return new ConflictError('The request collided with a concurrent change: retry it', {
        headers: { 'Retry-After': '1' },
      });
    default:
      return undefined;
  }
}

/** What a client is told to wait when the database is away: about as long as a restart takes. */
const RETRY_AFTER_SECONDS = 5;

/** Node's codes for a connection that could not be made, or was lost. */
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Three failures carry no code, only pg's or knex's own words, which MikroORM and knex put after
 * the query (`<query> - <words>`): pg's connection dropped mid-query, pg's connection attempt
 * unanswered, and knex's pool waiting in vain for a connection (orm.ts, CONNECTION_WAIT_MS).
 */
const UNAVAILABLE_WORDS: [RegExp, string][] = [
  [/^Connection terminated( unexpectedly)?$/, 'the connection was dropped'],
  [/^timeout expired$/, 'a connection attempt was not answered in time'],
  [
    /^Knex: Timeout acquiring a connection/,
    'no pooled connection came free in time (the database away, or connections held too long)',
  ],
];

/**
 * Why the database could not serve the query, when it could not be reached or went away: a 503
 * rather than a 500, since a retry will do once it is back. PostgreSQL's own codes are SQLSTATE
 * class 08 (connection exception; 08P01, a protocol violation, is a refused value instead),
 * 53300 (too many connections) and 57P01–57P03 (shutting down, or not yet accepting connections).
 * Node's network codes come from pg's socket, whether MikroORM wrapped the error or a raw query
 * passed it on; in this API nothing else connects anywhere while a request waits on it (Redis
 * waits through an outage rather than failing).
 */
function unavailableReason(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall } = error as Error & { code?: unknown; syscall?: unknown };
  if (typeof code === 'string' && SQLSTATE.test(code)) {
    return (/^08/.test(code) && code !== '08P01') || code === '53300' || /^57P0[1-3]$/.test(code)
      ? `SQLSTATE ${code}`
      : undefined;
  }
  if (
    typeof code === 'string' &&
    CONNECTION_FAILURES.has(code) &&
    (error instanceof DriverException || typeof syscall === 'string')
  )
    return `the connection failed (${code})`;
  const words = error.message.split(' - ').at(-1)!;
  return UNAVAILABLE_WORDS.find(([pattern]) => pattern.test(words))?.[1];
}

/** SQLSTATE codes are five characters; Node's own codes (ECONNREFUSED …) are not database answers. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

function postgresFailure(error: unknown): PostgresFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, detail, column } = error as Error & Partial<PostgresFailure>;
  if (typeof code !== 'string' || !SQLSTATE.test(code)) return undefined;
  return { code, detail, column, message: error.message };
}

/** PostgreSQL says `Key (tenant_id, name)=(…) already exists.`; the tenant column is not news to the caller. */
function conflictingFields(failure: PostgresFailure): string[] {
  const columns = /Key \(([^)]+)\)=/.exec(failure.detail ?? failure.message)?.[1];
  if (!columns) return [];
  return columns
    .split(',')
    .map((column) => column.trim().replace(/"/g, ''))
    .filter((column) => column !== 'tenant_id')
    .map(camelCase);
}

function camelCase(column: string): string {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
