import {
  type BrowserAnswer,
  type CheckedCredentials,
  checkCredentials,
  type Context,
  contextOf,
  type ResponseHeaders,
  type Services,
  type SessionCookieWriter,
  type UploadSource,
} from '@lfk/api';
import { cutToLength, TEXT_LIMITS } from '@lfk/vocabulary';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OwnOriginCheck } from './own-origin.ts';

export const SESSION_COOKIE = 'lfk_session';
/**
 * Set and cleared with the session cookie, readable by the dashboard's script and worth nothing
 * (`1`): whether a session is worth asking about. A signed-out visit then goes straight to the
 * sign-in page instead of asking and getting a 401 (GitHub's `logged_in` cookie, in lfk's words).
 */
export const SIGNED_IN_COOKIE = 'lfk_signed_in';

/** A request header's (first) value. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Aborted when the client ends its side of the connection (or the connection closes) before this
 * request's answer is written. A vanished client sends no more than that FIN, and the server keeps
 * a half-closed connection open for the answer (client-errors.ts): a long poll answers at once
 * instead of holding its place for a client that may be gone.
 */
function clientGoneSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const socket = request.raw.socket as (typeof request.raw.socket & { readableEnded?: boolean }) | undefined;
  // `inject` has no connection to lose.
  if (!socket || typeof socket.once !== 'function') return new AbortController().signal;
  if (socket.readableEnded || socket.destroyed) return AbortSignal.abort();
  const gone = new AbortController();
  const abort = () => gone.abort();
  socket.once('end', abort);
  socket.once('close', abort);
  // A keep-alive connection carries later requests: this one's listeners leave with its answer.
  reply.raw.once('close', () => {
    socket.off('end', abort);
    socket.off('close', abort);
  });
  return gone.signal;
}

/** The session cookie, when the request has a Cookie header naming one. */
function sessionCookieOf(request: FastifyRequest): string | undefined {
  const cookies = header(request, 'cookie');
  return cookies === undefined ? undefined : request.server.parseCookie(cookies)[SESSION_COOKIE];
}

/** `browser` and `upload` are given by the transport that answers browsers and reads multipart bodies (the submission route). */
export type ContextForRequest = (request: FastifyRequest, reply: FastifyReply, browser?: BrowserAnswer, upload?: UploadSource | null) => Promise<Context>;

/**
 * How each HTTP request gets its inner context, whichever transport (REST or tRPC) carries it: in
 * one step (`contextFor`), or in two, so a refused bearer is answered before the rest is built
 * (`check`, then `build`). What depends only on the configuration is worked out once, here.
 */
export interface RequestContexts {
  contextFor: ContextForRequest;
  check(request: FastifyRequest): Promise<CheckedCredentials>;
  build(request: FastifyRequest, reply: FastifyReply, checked: CheckedCredentials, browser?: BrowserAnswer, upload?: UploadSource | null): Context;
}

export function requestContexts(services: Services, publicUrl: string, isOwnOrigin: OwnOriginCheck): RequestContexts {
  const secure = publicUrl.startsWith('https:');
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;
  const check = (request: FastifyRequest) => {
    const userAgent = header(request, 'user-agent');
    return checkCredentials(services, {
      method: request.method,
      authorization: header(request, 'authorization'),
      sessionCookie: sessionCookieOf(request),
      origin: header(request, 'origin'),
      secFetchSite: header(request, 'sec-fetch-site'),
      isOwnOrigin: (origin) => isOwnOrigin(origin, request),
      // Stored as sent (sessions, key uses, device sign-ins), and the client writes both (the
      // address through X-Forwarded-For, behind a proxy it may reach): cut once, here, to fit.
      ip: cutToLength(request.ip, TEXT_LIMITS.ipAddress),
      userAgent: userAgent === undefined ? undefined : cutToLength(userAgent, TEXT_LIMITS.userAgent),
    });
  };
  const build: RequestContexts['build'] = (request, reply, checked, browser, upload = null) => {
    const cookies: SessionCookieWriter = {
      set(token, expiresAt) {
        reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: expiresAt });
        reply.setCookie(SIGNED_IN_COOKIE, '1', { ...cookieOptions, httpOnly: false, expires: expiresAt });
      },
      clear() {
        reply.clearCookie(SESSION_COOKIE, cookieOptions);
        reply.clearCookie(SIGNED_IN_COOKIE, { ...cookieOptions, httpOnly: false });
      },
    };
    const headers: ResponseHeaders = {
      set(name, value) {
        reply.header(name, value);
      },
    };
    const facts = {
      requestId: String(request.id),
      idempotencyKey: header(request, 'idempotency-key'),
      clientGone: () => clientGoneSignal(request, reply),
    };
    return contextOf(services, facts, checked, cookies, headers, browser, upload);
  };
  return {
    contextFor: async (request, reply, browser, upload) => build(request, reply, await check(request), browser, upload),
    check,
    build,
  };
}
