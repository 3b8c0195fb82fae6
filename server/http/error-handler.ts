// The one place domain errors become HTTP responses of the shape { error, code, details? }.
// 5xx messages are masked and logged with the request id.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Invalid, NotFound, TimedOut, Unavailable } from '../errors.ts';
import { isDependencyDown } from '../dependency-errors.ts';
import { invalidFromValidation } from './validation.ts';

/** Postgres cancelled the statement (57014): STATEMENT_TIMEOUT_MS ran out. */
export function isStatementTimeout(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: string; cause?: unknown };
  if (e.code === '57014') return true;
  return e.cause ? isStatementTimeout(e.cause) : false;
}

export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isStatementTimeout(error)) return new TimedOut();
  const fe = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (fe?.validation) return invalidFromValidation(fe.validation as never, fe.validationContext ?? 'body');
  if (isDependencyDown(error)) return new Unavailable();
  // Postgres cannot store NUL characters or broken UTF-8; whatever input carried them, it is the
  // input that is wrong, not the server.
  if (fe?.code === '22021' || fe?.code === '22P05') {
    return new Invalid('Text contains characters that cannot be stored (such as a NUL character)', {
      input: 'contains characters that cannot be stored',
    });
  }
  // A number too large for its column (22003) or text that is not a number where one belongs
  // (22P02) can only have come from the request: the schemas bound ids, but this keeps any value
  // they miss a 400 rather than a 500.
  if (fe?.code === '22003' || fe?.code === '22P02') {
    return new Invalid('A number in the request is out of range or not a number', {
      input: 'holds a number out of range or not a number',
    });
  }
  const status = fe?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    switch (fe.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return new AppError(415, 'unsupported_media_type', 'Unsupported content type: send application/json');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return new AppError(413, 'payload_too_large', 'Request body is too large');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return new AppError(
          400,
          'invalid_input',
          'Request body must not be empty when Content-Type is application/json',
        );
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return new AppError(400, 'invalid_json', 'Request body is not valid JSON');
      default:
        if (error instanceof SyntaxError)
          return new AppError(400, 'invalid_json', 'Request body is not valid JSON');
        return new AppError(
          status,
          status === 404 ? 'not_found' : 'bad_request',
          fe.message || 'Bad request',
        );
    }
  }
  return null;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError) {
      if (appError.statusCode >= 500) request.log.warn({ err: error }, appError.message);
      if (appError.headers) reply.headers(appError.headers);
      const body: Record<string, unknown> = { error: appError.message, code: appError.code };
      if (appError.details !== undefined) body.details = appError.details;
      return reply.status(appError.statusCode).send(body);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      error: 'Something went wrong on our side. Please try again.',
      code: 'internal_error',
      details: { request_id: request.id },
    });
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ error: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'not_found' });
  });
}

/**
 * Fastify answers a path it cannot route (a broken %-escape, an over-long segment) before any hook
 * or error handler runs; this keeps those answers in the contract's shape. A segment too long to be
 * an id names nothing, so it reads as a 404 like any other id that is not a number.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new NotFound('No such thing: a part of the path is too long')
      : new Invalid('The request path is not valid: it holds a malformed escape sequence');
  void reply.status(appError.statusCode).send({ error: appError.message, code: appError.code });
}
