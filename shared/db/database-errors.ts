import { DriverException } from '@mikro-orm/core';
import { AppError, BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from '../errors/app-errors.js';

/** What PostgreSQL tells about a failure, whether raised through MikroORM or a raw query. */
interface PostgresFailure {
  code: string;
  detail?: string;
  column?: string;
  message: string;
}

/**
 * The one place where a database failure becomes a client-facing error (STYLE.md §3), by its
 * SQLSTATE, so a failure reads the same from `em.flush()` (MikroORM's DriverException keeps the
 * code) and from a raw `connection.execute()` (pg's DatabaseError). Anything not listed stays
 * unknown and is answered as a 500 by the caller.
 */
export function translateDatabaseError(error: unknown): AppError | undefined {
  if (isDatabaseUnavailable(error)) {
    return new ServiceUnavailableError('The database is unavailable: retry shortly', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, cause: error });
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
      return new BadRequestError(`A required value is missing${failure.column ? `: ${camelCase(failure.column)}` : ''}`);
    case '22003':
      return new BadRequestError('A number is out of the range this field takes');
    case '23514':
      return new ConflictError('The change would break a rule of the data (for example a balance below zero)');
    case '40001':
    case '40P01':
      return new ConflictError('The request collided with a concurrent change: retry it', { headers: { 'Retry-After': '1' } });
    default:
      return undefined;
  }
}

/** What a client is told to wait when the database is away: about as long as a restart takes. */
const RETRY_AFTER_SECONDS = 5;

/** Node's codes for a connection that could not be made, or was lost. */
const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Three failures carry no code, only their message (which MikroORM may prefix with the query):
 * pg's connection dropped mid-query, pg's connection attempt unanswered, and knex's pool waiting
 * in vain for a connection (orm.ts, CONNECTION_WAIT_MS; MikroORM renames KnexTimeoutError).
 */
const UNAVAILABLE_MESSAGES = /\bConnection terminated\b|(^| - )timeout expired$|^Knex: Timeout acquiring a connection/;

/**
 * The database could not be reached, or went away mid-query: 503 rather than a 500, since a
 * retry will do once it is back. Node's network codes count only inside MikroORM's DriverException
 * (the database driver's); PostgreSQL's own are SQLSTATE class 08 (connection exception, but for
 * 08P01) and 57P01–57P03 (shutting down, or not yet accepting connections).
 */
function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_MESSAGES.test(error.message)) return true;
  const { code } = error as Error & { code?: unknown };
  if (typeof code !== 'string') return false;
  // 08P01, a protocol violation, is a refused message, not a connection lost.
  if ((/^08[0-9A-Z]{3}$/.test(code) && code !== '08P01') || /^57P0[1-3]$/.test(code)) return true;
  return error instanceof DriverException && CONNECTION_FAILURES.has(code);
}

function postgresFailure(error: unknown): PostgresFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, detail, column } = error as Error & Partial<PostgresFailure>;
  // SQLSTATE codes are five characters; Node's own codes (ECONNREFUSED …) are not database answers.
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
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
