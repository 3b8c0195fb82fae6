// Requests Node's HTTP server gives up on before Fastify sees them (one that takes longer than
// REQUEST_TIMEOUT_MS to arrive, headers too large, bytes that are not HTTP) are answered here, in
// the contract's shape; and a request whose body a route bounds by its own rule (a photo upload,
// server/photos/upload.ts) is exempt from REQUEST_TIMEOUT_MS while that rule holds.
import type { Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

const boundElsewhere = new WeakSet<Socket>();

/**
 * REQUEST_TIMEOUT_MS stops cutting the request arriving on `socket` until the returned function is
 * called: the caller bounds it instead.
 */
export function exemptFromRequestTimeout(socket: Socket): () => void {
  boundElsewhere.add(socket);
  return () => boundElsewhere.delete(socket);
}

type Answer = { status: number; reason: string; error: string; code: string };

function answerTo(code: string | undefined): Answer {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        error: 'The request took too long to arrive and was stopped. Please try again.',
        code: 'request_timeout',
      };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        error: 'The request headers are too large',
        code: 'headers_too_large',
      };
    default:
      return {
        status: 400,
        reason: 'Bad Request',
        error: 'The request is not valid HTTP',
        code: 'bad_request',
      };
  }
}

/** Fastify's `clientErrorHandler`: answers, then closes the connection, as Node itself would. */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node finds such a request over its time again at every check; its own bound decides.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && boundElsewhere.has(socket)) return;
  const answer = answerTo(error.code);
  this.log.debug({ err: error }, `client error answered ${answer.status}`);
  // Nothing is written into a response already on its way (Node's own caution).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ error: answer.error, code: answer.code });
    socket.write(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
