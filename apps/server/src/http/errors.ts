import { ApiError, asApiError, type DatabaseOutage, type ErrorCode, INVALID_API_KEY, restRoutes, toWireError, trpcErrorData, type WireError } from '@lfk/api';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { htmlPage } from './html-page.ts';

/** Fastify's own failures (body too large, wrong content type, bad JSON), by their code. */
const BY_FASTIFY_CODE: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
};

/** Fastify's own failures in lfk's terms; any other 4xx it raises is a request it could not read. */
function fromFastify(error: FastifyError): ApiError | null {
  const code = BY_FASTIFY_CODE[error.code];
  if (code) return new ApiError(code);
  return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
    ? new ApiError('invalid_request', { message: 'The request could not be read.' })
    : null;
}

/** What a path parameter that names nothing is: the 404 of its resource. */
const NOT_FOUND_BY_PARAM: Record<string, ErrorCode> = {
  workspace_id: 'workspace_not_found',
  key_id: 'api_key_not_found',
  user_id: 'member_not_found',
  form_id: 'form_not_found',
  submission_id: 'submission_not_found',
  session_id: 'session_not_found',
  token: 'not_found',
};

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * A URL whose percent-encoding does not decode. If it is a route with a broken id in it, that id
 * names nothing: the 404 of its resource, as for any id of the wrong shape. Otherwise no route.
 */
function notFoundForUndecodableUrl(method: string, url: string): ApiError {
  const segments = url.split('?')[0]!.split('/');
  for (const route of restRoutes) {
    const pattern = route.path.split('/');
    if (route.method !== method || pattern.length !== segments.length) continue;
    const fits = pattern.every((part, i) => part.startsWith(':') || part === segments[i]);
    const broken = pattern.findIndex((part, i) => part.startsWith(':') && !decodes(segments[i]!));
    const code = broken >= 0 ? NOT_FOUND_BY_PARAM[pattern[broken]!.slice(1)] : undefined;
    if (fits && code) return new ApiError(code);
  }
  return new ApiError('not_found', { message: 'No such route.' });
}

/** Fastify's errors from before routing (a URL that does not decode, for one). */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = error.code === 'FST_ERR_BAD_URL' ? notFoundForUndecodableUrl(request.method, request.url) : error;
  return sendError(known, request, reply);
}

/**
 * Headers Node refuses to write (a stored value with a control character in it, say): the failure
 * surfaces only when the answer is sent, and the error answer must not carry them, or it fails too.
 */
function dropUnsendableHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    try {
      validateHeaderName(name);
      for (const one of [value ?? ''].flat()) validateHeaderValue(name, String(one));
    } catch {
      reply.removeHeader(name);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The database's outages, as this process sees them (server.ts). */
    databaseOutage: DatabaseOutage;
  }
}

/**
 * Logs what a request failed on, unless it is the database being away: that is counted towards
 * the outage, logged once for all the requests it fails.
 */
export function logFailure(error: unknown, request: FastifyRequest): void {
  if (!request.server.databaseOutage.note(error)) request.log.error({ err: error }, 'unexpected error');
}

/** The lfk error behind whatever was thrown, by lfk, tRPC or fastify; null (logged) when unexpected. */
function knownError(error: unknown, request: FastifyRequest): ApiError | null {
  const known = asApiError(error) ?? fromFastify(error as FastifyError);
  if (!known || known.apiCode === 'service_unavailable') logFailure(error, request);
  return known;
}

/**
 * A bad key's answer, serialized once around its request id: the refusal a flood of bad keys gets,
 * answered for as little as the hand-written lower bound answers it (docs/benchmarks.md, scenario 8).
 */
const REFUSED_KEY = (() => {
  const wire = toWireError(INVALID_API_KEY, '\u0000');
  const [head, tail] = JSON.stringify(wire.body).split('\\u0000') as [string, string];
  return { status: wire.status, head, tail };
})();

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Raised by authentication before any procedure ran: no header of the answer can be unsendable.
  // A request id is a plain token (request-ids.ts), so it needs no escaping in JSON.
  if (error === INVALID_API_KEY && !request.url.startsWith('/trpc/')) {
    return reply.code(REFUSED_KEY.status).type('application/json; charset=utf-8').send(`${REFUSED_KEY.head}${request.id}${REFUSED_KEY.tail}`);
  }
  const known = knownError(error, request);
  dropUnsendableHeaders(reply);
  const wire = toWireError(known ?? error, String(request.id));
  // Errors raised before the onRequest hook ran still carry the request id.
  reply.header('x-request-id', request.id);
  if (known?.headers) reply.headers(known.headers);
  reply.code(wire.status);
  // The typed client reads tRPC's envelope, even for errors raised before tRPC ran.
  if (request.url.startsWith('/trpc/')) {
    const trpcCode = known?.code ?? 'INTERNAL_SERVER_ERROR';
    return reply.send({
      error: {
        code: TRPC_ERROR_CODES_BY_KEY[trpcCode],
        message: wire.body.error.message,
        data: trpcErrorData(wire),
      },
    });
  }
  return reply.send(wire.body);
}

/** The words of an error page, from the error as the API would answer it and its headers; a link after them, if any. */
export type ErrorPageText = (
  wire: WireError,
  headers: Record<string, string>,
) => { title: string; paragraphs: string[]; items?: string[]; link?: { label: string; href: string } | undefined };

/** The error as the API answers it, and the headers it carries (`Retry-After`), whatever was thrown. */
export function wireErrorOf(error: unknown, request: FastifyRequest): { wire: WireError; headers: Record<string, string> } {
  const known = knownError(error, request);
  return { wire: toWireError(known ?? error, String(request.id)), headers: known?.headers ?? {} };
}

/** An error page that shows the API's message, one line per bad field, and `advice`. */
export const apiErrorPage =
  (title: string, advice?: string): ErrorPageText =>
  ({ body }) => ({
    title,
    paragraphs: [body.error.message, ...(advice ? [advice] : [])],
    items: (body.error.details ?? []).map((d) => `${d.path}: ${d.message}`),
  });

/**
 * The same error for a person in a browser (a verification link, an HTML form post): a small page
 * with the error's status and headers, the words `text` gives it, the request id to quote, and the
 * code in a `<meta>` for programs.
 */
export function sendErrorPage(error: unknown, request: FastifyRequest, reply: FastifyReply, text: ErrorPageText): FastifyReply {
  const { wire, headers } = wireErrorOf(error, request);
  dropUnsendableHeaders(reply);
  reply.headers(headers);
  const page = text(wire, headers);
  const paragraphs = [...page.paragraphs, `Request id: ${wire.body.error.request_id}`];
  const html = htmlPage(page.title, paragraphs, { items: page.items ?? [], errorCode: wire.body.error.code, ...(page.link ? { link: page.link } : {}) });
  return reply.code(wire.status).type('text/html; charset=utf-8').send(html);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(new ApiError('not_found', { message: `No route ${request.method} ${request.url.split('?')[0]!}.` }), request, reply),
  );
}
