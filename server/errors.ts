// Typed domain errors. Deciders and repositories throw these; the HTTP error handler maps them.
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class Invalid extends AppError {
  constructor(message: string, details?: Record<string, string>) {
    super(400, 'invalid_input', message, details);
  }
}

/** An error of one status and code, saying `defaultMessage` unless it is given another message. */
function withDefaultMessage(statusCode: number, code: string, defaultMessage: string) {
  return class extends AppError {
    constructor(message = defaultMessage) {
      super(statusCode, code, message);
    }
  };
}

export class Unauthorized extends withDefaultMessage(401, 'unauthorized', 'Authentication required') {}
export class Forbidden extends withDefaultMessage(403, 'forbidden', 'You are not allowed to do this') {}
export class NotFound extends withDefaultMessage(404, 'not_found', 'Not found') {}
export class Conflict extends AppError {
  constructor(message: string, code = 'conflict', details?: unknown) {
    super(409, code, message, details);
  }
}
export class ConcurrencyError extends Conflict {
  constructor(message = 'This item was changed by someone else. Reload and try again.') {
    super(message, 'version_conflict');
  }
}
export class PayloadTooLarge extends AppError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}
export class UnsupportedMediaType extends AppError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}
export class RateLimited extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(
      429,
      'rate_limited',
      message,
      { retry_after: retryAfterSeconds },
      {
        'retry-after': String(retryAfterSeconds),
      },
    );
  }
}
/** A statement ran past STATEMENT_TIMEOUT_MS (API.md, Robustness of every route). */
export class TimedOut extends withDefaultMessage(
  503,
  'timeout',
  'This request took too long and was stopped. Please try again shortly.',
) {}
export class Unavailable extends withDefaultMessage(
  503,
  'unavailable',
  'A service this request needs is unavailable. Please try again shortly.',
) {}
