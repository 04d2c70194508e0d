import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from '../config.ts';
import { clientErrorHandler } from './client-errors.ts';
import { frameworkError } from './errors.ts';
import { loggedUrl } from './logged-url.ts';
import { requestIdFor } from './request-ids.ts';
import { requestLogger } from './request-logger.ts';

export const BODY_LIMIT = 1024 * 1024;

/** Secrets never reach a log line, whatever object a log call is handed. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.key',
  '*.token',
  '*.session_token',
  '*.claim_token',
  '*.secret',
];

/** How often Node looks for connections past their headers or request timeout. */
const CONNECTIONS_CHECKED_EVERY_MS = 1000;

/**
 * Request logging for a log a person reads on a terminal: one line per answered request,
 * `GET /v1/forms/… 200 (3 ms)`, instead of Fastify's two with the whole request and response.
 */
class ReadableRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${loggedUrl(request.url)} ${reply.statusCode} (${reply.elapsedTime.toFixed(0)} ms)`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}

/** The Fastify instance as lfk runs it: its limits, timeouts, request ids, proxies and log. */
export function fastifyApp(config: Config, log: { stream?: DestinationStream; readable?: boolean }): FastifyInstance {
  return Fastify({
    bodyLimit: BODY_LIMIT,
    // Long path ids are answered by the route (404 of that resource), as tRPC answers them, not by
    // the router: no path segment that fits in a request Node reads is too long for it.
    routerOptions: { maxParamLength: maxHeaderSize },
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    logger: {
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        // A key pasted into a URL by mistake must not land in the logs either.
        req: (req) => ({ method: req.method, url: loggedUrl(req.url), remoteAddress: req.ip }),
      },
      ...(log.stream ? { stream: log.stream } : {}),
    },
    childLoggerFactory: requestLogger,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    frameworkErrors: frameworkError,
    clientErrorHandler,
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    connectionTimeout: config.timeouts.idleMs,
    http: {
      headersTimeout: config.timeouts.headersMs,
      // Node checks the two timeouts above this often (30 s by default, which would let them run late by as much).
      connectionsCheckingInterval: CONNECTIONS_CHECKED_EVERY_MS,
      // A request without Host is refused by lfk (in its own shape), not by Node (an empty 400).
      requireHostHeader: false,
    },
    // A request that reaches the router while the server stops is refused by lfk (see request-hooks.ts), not by Fastify.
    return503OnClosing: false,
    ...(log.readable ? { logController: new ReadableRequestLog() } : {}),
  });
}
