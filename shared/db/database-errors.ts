import { AppError, BadRequestError, ConflictError, NotFoundError } from '../errors/app-errors.js';

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
