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
export class Unauthorized extends AppError {
  constructor(message = 'Authentication required') {
    super(401, 'unauthorized', message);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'You are not allowed to do this') {
    super(403, 'forbidden', message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, 'not_found', message);
  }
}
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
export class TimedOut extends AppError {
  constructor(message = 'This request took too long and was stopped. Please try again shortly.') {
    super(503, 'timeout', message);
  }
}
export class Unavailable extends AppError {
  constructor(message = 'A service this request needs is unavailable. Please try again shortly.') {
    super(503, 'unavailable', message);
  }
}
