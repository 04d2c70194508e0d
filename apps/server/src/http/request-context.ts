import { type Context, createContext, type ResponseHeaders, type Services, type SessionCookieWriter } from '@lfk/api';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'lfk_session';

/** A request header's (first) value. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The inner context for one HTTP request, whichever transport (REST or tRPC) carries it. */
export function contextForRequest(
  services: Services,
  publicUrl: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Context> {
  const secure = publicUrl.startsWith('https:');
  const cookies: SessionCookieWriter = {
    set(token, expiresAt) {
      reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: expiresAt });
    },
    clear() {
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
    },
  };
  const headers: ResponseHeaders = {
    set(name, value) {
      reply.header(name, value);
    },
  };
  return createContext(
    services,
    {
      requestId: String(request.id),
      method: request.method,
      authorization: header(request, 'authorization'),
      sessionCookie: request.cookies[SESSION_COOKIE],
      origin: header(request, 'origin'),
      secFetchSite: header(request, 'sec-fetch-site'),
      ownOrigins: [new URL(publicUrl).origin, `${request.protocol}://${request.host}`],
      ip: request.ip,
      idempotencyKey: header(request, 'idempotency-key'),
    },
    cookies,
    headers,
  );
}
