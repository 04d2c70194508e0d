import { ApiError, asApiError, toWireError } from '@lfk/api';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { redactSecrets } from './redact.ts';

/** Fastify's own failures (body too large, wrong content type, bad JSON) in lfk's terms. */
function fromFastify(error: FastifyError): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json');
    default:
      return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? new ApiError('invalid_request', { message: 'The request could not be read.' })
        : null;
  }
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = asApiError(error) ?? fromFastify(error as FastifyError);
  if (!known) request.log.error({ err: error }, 'unexpected error');
  const wire = toWireError(known ?? error, String(request.id));
  if (known?.headers) reply.headers(known.headers);
  reply.code(wire.status);
  // The typed client reads tRPC's envelope, even for errors raised before tRPC ran.
  if (request.url.startsWith('/trpc/')) {
    const trpcCode = known?.code ?? 'INTERNAL_SERVER_ERROR';
    return reply.send({
      error: {
        code: TRPC_ERROR_CODES_BY_KEY[trpcCode],
        message: wire.body.error.message,
        data: { ...wire.body.error, httpStatus: wire.status },
      },
    });
  }
  return reply.send(wire.body);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(new ApiError('not_found', { message: `No route ${request.method} ${redactSecrets(request.url.split('?')[0]!)}.` }), request, reply),
  );
}
