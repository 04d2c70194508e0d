import fastifyCookie from '@fastify/cookie';
import { ApiError } from '@lfk/api';
import type { FastifyInstance } from 'fastify';
import { handleWhatNodeKeeps } from './client-errors.ts';
import { registerErrorHandling } from './errors.ts';
import { addPageHeaders } from './page-headers.ts';

/**
 * What every request goes through before its route: its id and no-store, refusal while the
 * server stops, a Host for HTTP/1.1, JSON as the only body, cookies, and errors in lfk's shape.
 */
export async function registerRequestHooks(app: FastifyInstance, closing: () => boolean): Promise<void> {
  handleWhatNodeKeeps(app);
  // Hooks on every request take a callback, not a promise: one fewer allocation and tick per answer;
  // and one hook does what it can, as each costs every request a step.
  app.addHook('onSend', (request, reply, payload, done) => {
    // While stopping, answers end their connection, so a keep-alive client cannot hold shutdown open.
    if (closing()) reply.header('connection', 'close');
    addPageHeaders(request, reply);
    done(null, payload);
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // API answers are never cached: one of them carries a key that is shown once.
    reply.header('cache-control', 'no-store');
    // Shed load while draining: the balancer sends the retry to another replica.
    if (closing()) return done(new ApiError('unavailable', { headers: { 'retry-after': '1' } }));
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return done(new ApiError('invalid_request', { message: 'An HTTP/1.1 request must have a Host header.' }));
    }
    done();
  });

  // JSON is the only body lfk takes here; anything else is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    // No route, no body to read: an unknown route is a 404 whatever it was sent.
    if (request.routeOptions.url === undefined || text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('invalid json'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }), undefined);
    }
  });

  // Cookies are read when a request's context is built (request-context.ts), not parsed ahead for
  // every request: only the session cookie is ever read, and most requests carry none.
  await app.register(fastifyCookie, { hook: false });
  registerErrorHandling(app);
}
