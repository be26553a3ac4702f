/**
 * Every error the platform answers with is one of these classes. They are thrown anywhere (routes,
 * services, middleware) and turned into the envelope of docs/api-conventions.md#errors in exactly
 * one place: api/errors/error-handler.ts.
 */

/** One item of `data.errors` on a 400 ValidationError (docs/api-conventions.md#errors). */
export interface ValidationIssue {
  property: string;
  value: unknown;
  constraints: Record<string, string>;
  children: ValidationIssue[];
}

export interface AppErrorOptions {
  /** Extra members of `data` beside name, httpCode and message. */
  data?: Record<string, unknown>;
  /** The documents fix `status: 'error'` for some 4xx answers of POST /events. */
  envelopeStatus?: 'fail' | 'error';
  /** The documents keep `data` empty for some answers of POST /events. */
  emptyData?: boolean;
  /** Response headers that belong with this error (Retry-After, RateLimit-*). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export abstract class AppError extends Error {
  abstract readonly httpCode: number;
  readonly data: Record<string, unknown>;
  readonly envelopeStatus: 'fail' | 'error' | undefined;
  readonly emptyData: boolean;
  readonly headers: Record<string, string>;

  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.data = options.data ?? {};
    this.envelopeStatus = options.envelopeStatus;
    this.emptyData = options.emptyData ?? false;
    this.headers = options.headers ?? {};
  }
}

export class ValidationError extends AppError {
  readonly httpCode = 400;
  constructor(message: string, errors: ValidationIssue[] = [], options: AppErrorOptions = {}) {
    super(message, { ...options, data: { ...options.data, errors } });
  }
}

/** A 400 ValidationError about one field of a body or query, named in its message and in its one item. */
export function fieldError(property: string, value: unknown, rule: string, message: string): ValidationError {
  return new ValidationError(message, [validationIssue(property, value, rule, message)]);
}

/** One item of `data.errors`: the field, its value, and the rule it breaks with the message saying how. */
export function validationIssue(property: string, value: unknown, rule: string, message: string): ValidationIssue {
  return { property, value, constraints: { [rule]: message }, children: [] };
}

export class BadRequestError extends AppError {
  readonly httpCode = 400;
}

/**
 * fieldError's 400 BadRequestError twin, about one field whose value is well formed but refused by
 * what it refers to (an invite code no active campaign has), its `data.errors` item as fieldError's.
 */
export function fieldBadRequestError(property: string, value: unknown, rule: string, message: string): BadRequestError {
  return new BadRequestError(message, { data: { errors: [validationIssue(property, value, rule, message)] } });
}

export class UnauthorizedError extends AppError {
  readonly httpCode = 401;
  constructor(message = 'Unauthorized', options: AppErrorOptions = {}) {
    super(message, options);
  }
}

export class InvalidApiKeyError extends AppError {
  readonly httpCode = 403;
  constructor(message = 'Invalid API key') {
    super(message);
  }
}

export class NotFoundError extends AppError {
  readonly httpCode = 404;
}

export class ConflictError extends AppError {
  readonly httpCode = 409;
}

export class PayloadTooLargeError extends AppError {
  readonly httpCode = 413;
  constructor(limitBytes: number) {
    // The rest of the body is still on its way: closing the connection after the answer spares
    // reading and discarding it all (50 MB took 6 s), which anyone could make us do without a key.
    // It is read a bounded while first, so that the client reads this answer (api/lingering-close.ts).
    super(`Request body is larger than the limit of ${limitBytes} bytes`, {
      data: { limit: limitBytes },
      headers: { Connection: 'close' },
    });
  }
}

/** docs/users.md#contacts: an email or telephone already used, when the tenant disallows duplicates. */
export class UserExistsError extends AppError {
  readonly httpCode = 422;
}

/** A spend or a negative adjustment larger than the member's balance: balances never go below zero. */
export class InsufficientPointsError extends AppError {
  readonly httpCode = 422;
}

/** A spend beyond what is left of the tenant's spend cap for the period (docs/points.md#caps). */
export class PointsCapExceededError extends AppError {
  readonly httpCode = 422;
}

/** The same Idempotency-Key was sent with another request body (docs/api-conventions.md#idempotency). */
export class IdempotencyKeyReusedError extends AppError {
  readonly httpCode = 422;
  constructor() {
    super('This Idempotency-Key was already used with another request body');
  }
}

/**
 * A rule set that json-rules-engine could not run on a transaction (an operator meeting a value it
 * cannot compare, say). The reviewer turns it into ABSTAIN RULE_ENGINE_THREW_ERROR
 * (docs/receipts.md#automated-checks).
 */
export class RuleEngineError extends AppError {
  readonly httpCode = 422;
}

/**
 * Something the tenant configured cannot be used as it stands (an event type's stored schema that
 * the payload checker no longer runs, say): not the caller's fault, and no retry mends it, but the
 * tenant's admins can.
 */
export class TenantConfigurationError extends AppError {
  readonly httpCode = 422;
}

export class TooManyRequestsError extends AppError {
  readonly httpCode = 429;
  constructor(retryAfterSeconds: number, headers: Record<string, string>) {
    super('Too many requests: slow down and retry after the time in Retry-After', {
      data: { retryAfter: retryAfterSeconds },
      headers: { ...headers, 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

export class ServiceUnavailableError extends AppError {
  readonly httpCode = 503;
}

/** The fixed answer to anything unexpected: the real cause is logged, never sent. */
export class InternalError extends AppError {
  readonly httpCode = 500;
  constructor(cause?: unknown) {
    super('Internal server error', { cause });
  }
}

/** A purchase of a reward whose `purchasable` is false (docs/rewards.md#purchases). */
export class RewardNotPurchasableError extends AppError {
  readonly httpCode = 422;
}

/** A purchase outside the reward's availability window, or of a reward out of stock (docs/rewards.md#purchases). */
export class RewardUnavailableError extends AppError {
  readonly httpCode = 422;
}

/** A reward with an uploaded pool of codes has none left to give (docs/rewards.md#codes). */
export class VoucherCodePoolExhaustedError extends AppError {
  readonly httpCode = 409;
}

/** A voucher validated at a till already (docs/rewards.md#at-the-till): a code is burned once. */
export class VoucherAlreadyValidatedError extends AppError {
  readonly httpCode = 409;
}

/** A voucher past its `expiresAt`, or redeemed and left unvalidated past its redemption window. */
export class VoucherExpiredError extends AppError {
  readonly httpCode = 410;
}
