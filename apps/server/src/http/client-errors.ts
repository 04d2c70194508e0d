import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, toWireError } from '@lfk/api';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { newRequestId } from './request-ids.ts';

/** What Node's HTTP parser refused, in lfk's terms. */
function fromClientError(code: string | undefined): ApiError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout');
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large');
    default:
      return new ApiError('invalid_request', { message: 'The request is not well-formed HTTP.' });
  }
}

/** The parts of a socket Node's HTTP server keeps: the answer in progress on it, if any. */
type ServerSocket = Socket & { _httpMessage?: { headersSent?: boolean } };

/**
 * Answers on the bare socket, for what never becomes a Fastify request: lfk's shape with a fresh
 * request id, logged under that id (the code only: the raw bytes may hold a secret); the
 * connection is closed once the answer is out, whatever the client still sends.
 */
function answerOnSocket(log: FastifyBaseLogger, socket: Socket, error: ApiError, cause: string | undefined): void {
  const requestId = newRequestId();
  const { status, body } = toWireError(error, requestId);
  log.info({ request_id: requestId, code: cause, status }, 'request refused before routing');
  // An answer already under way (its headers sent) cannot be replaced by another.
  if (!socket.writable || (socket as ServerSocket)._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(json)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      'cache-control: no-store\r\n' +
      'connection: close\r\n\r\n' +
      json,
    () => socket.destroy(),
  );
}

/**
 * Node's `clientError`: a request the HTTP parser could not take (malformed, headers too large, too
 * slow). Fastify calls it with itself as `this`.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  answerOnSocket(this.log, socket, fromClientError(error.code), error.code);
}

/**
 * The two requests Node keeps from Fastify: an `Expect` other than `100-continue` (Node would answer
 * an empty 417; RFC 9110 lets a server ignore it, and lfk does) and CONNECT (lfk is not a proxy:
 * no such route, rather than Node's silence). And a client that half-closes after its request (sends
 * FIN): by default Node ends the connection at once, so any answer not yet written (a refused key
 * whose count waits on the database, any read) is lost. A half-close delimits nothing (RFC 9112
 * §9.6): the answer is written, then the connection ends. `httpAllowHalfOpen` is Node's own switch
 * for it (untyped); a long poll still answers at once when its client closes its side
 * (request-context.ts, `clientGone`).
 */
export function handleWhatNodeKeeps(app: FastifyInstance): void {
  (app.server as typeof app.server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => app.server.emit('request', request, response));
  app.server.on('connect', (_request: IncomingMessage, socket: Socket) =>
    answerOnSocket(app.log, socket, new ApiError('not_found', { message: 'No route for CONNECT.' }), 'CONNECT'),
  );
}
