import {
  DeadlockException,
  DriverException,
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  UniqueConstraintViolationException,
  CheckConstraintViolationException,
} from '@mikro-orm/core';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../errors/app-errors.js';

/**
 * The one place where a database failure becomes a client-facing error (STYLE.md §3). Anything
 * not listed stays unknown and is answered as a 500 by the caller.
 */
export function translateDatabaseError(error: unknown): AppError | undefined {
  if (!(error instanceof DriverException)) return undefined;
  if (error instanceof UniqueConstraintViolationException) {
    const fields = conflictingFields(error);
    return new ConflictError(`A record with the same ${fields.join(', ') || 'values'} already exists`, {
      data: { explanation: `Change ${fields.join(', ') || 'the unique fields'} and try again`, fields },
    });
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    return new NotFoundError('A record this request refers to does not exist');
  }
  if (error instanceof NotNullConstraintViolationException) {
    const column = (error as { column?: string }).column;
    return new BadRequestError(`A required value is missing${column ? `: ${camelCase(column)}` : ''}`);
  }
  if (error instanceof CheckConstraintViolationException) {
    return new ConflictError('The change would break a rule of the data (for example a balance below zero)');
  }
  if (error instanceof DeadlockException) {
    return new ConflictError('The request collided with a concurrent change: retry it', { headers: { 'Retry-After': '1' } });
  }
  return undefined;
}

/** PostgreSQL says `Key (tenant_id, name)=(…) already exists.`; the tenant column is not news to the caller. */
function conflictingFields(error: DriverException): string[] {
  const detail = (error as { detail?: string }).detail ?? error.message;
  const columns = /Key \(([^)]+)\)=/.exec(detail)?.[1];
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
