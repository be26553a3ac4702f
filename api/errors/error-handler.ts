import { DriverException } from '@mikro-orm/core';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, InternalError, NotFoundError, ValidationError } from '../../shared/platform/errors/app-errors.js';
import { translateDatabaseError } from '../../shared/platform/db/database-errors.js';
import type { Logger } from '../../shared/platform/logging/logger.js';
import { requestLogger, type AppEnv } from '../app-env.js';
import { jsonAnswer } from '../routes/answer.js';

/**
 * The one place where an error becomes the envelope of docs/api-conventions.md#errors:
 * `{status, message, data: {name, httpCode, message, …}}`. Unknown errors are logged with the
 * request id and answered with a fixed message: their text may hold internals.
 */
export function handleError(error: unknown, c: Context<AppEnv>): Response {
  const appError = toAppError(error);
  if (appError instanceof InternalError) {
    logUnexpected(requestLogger(c), error);
  } else if (appError.httpCode >= 500 && appError.cause !== undefined) {
    // Known (the database away): a line for the operator, with the reason found (database-errors.ts).
    const { name, code, message } = appError.cause as { name?: string; code?: string; message?: string };
    requestLogger(c).warn({ cause: { name, code, reason: message } }, appError.message);
  }
  for (const [name, value] of Object.entries(appError.headers)) c.header(name, value);
  return jsonAnswer(c, envelope(appError), appError.httpCode as ContentfulStatusCode);
}

/**
 * A database error's message quotes its query, whose values may be personal data: its line at
 * error says the class and SQLSTATE only, and the query is logged at debug (docs/operations.md#logs).
 * Any other unknown error is logged whole, stack and all: its text is what finds the bug.
 */
function logUnexpected(log: Logger, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof DriverException || (error instanceof Error && typeof code === 'string' && SQLSTATE.test(code))) {
    log.error({ err: { type: error.name, code } }, 'unexpected database error');
    log.debug({ err: error }, 'unexpected database error, with its query');
  } else {
    log.error({ err: error }, 'unexpected error');
  }
}

/** PostgreSQL's error codes are five characters; Node's own (ECONNRESET …) are longer. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

export function handleNotFound(c: Context<AppEnv>): Response {
  return handleError(new NotFoundError(`No route ${c.req.method} ${c.req.path}`), c);
}

export function envelope(error: AppError) {
  return {
    status: error.envelopeStatus ?? (error.httpCode >= 500 ? 'error' : 'fail'),
    message: error.message,
    data: error.emptyData ? {} : { name: error.name, httpCode: error.httpCode, message: error.message, ...error.data },
  };
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fromDatabase = translateDatabaseError(error);
  if (fromDatabase) return fromDatabase;
  // Hono's own throws (malformed JSON in its parsers) are client errors, not ours.
  if (error instanceof HTTPException && error.status === 400) return new ValidationError(error.message);
  return new InternalError(error);
}
