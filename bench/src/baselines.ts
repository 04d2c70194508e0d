import { AsyncLocalStorage } from 'node:async_hooks';
import { callProcedure, type Context, INVALID_API_KEY, type Principal, toWireError } from '@lfk/api';
import type { LfkServer } from '@lfk/server';
import pg from 'pg';

/**
 * What the benchmark compares against, registered on the same server it measures and never part
 * of lfk itself:
 * - `GET /bench/forms/:form_id` reads a form through the same procedure as `GET /v1/forms/:form_id`,
 *   called the same way (`callProcedure`), for a key principal given up front: everything but authentication.
 * - `GET /bench/unauthorized` answers the 401 of a bad key, in lfk's bytes, and does nothing else.
 */
export function registerBaselines(server: LfkServer, principal: () => Principal): void {
  const { app, services } = server;
  const noCookies = { set() {}, clear() {} };
  app.get<{ Params: { form_id: string } }>('/bench/forms/:form_id', async (request, reply) => {
    const ctx: Context = {
      em: services.db.fork(),
      services,
      auth: { principal: principal(), failure: null, via: 'bearer' },
      requestId: String(request.id),
      ip: request.ip,
      userAgent: undefined,
      origin: undefined,
      idempotencyKey: undefined,
      cookies: noCookies,
      headers: { set: (name, value) => reply.header(name, value) },
      browser: { allowOrigin() {}, redirectTo() {}, formFound() {} },
      upload: null,
      clientGone: () => new AbortController().signal,
    };
    return reply.send(await callProcedure(ctx, 'forms.get', { form_id: request.params.form_id }));
  });
  app.get('/bench/unauthorized', (request, reply) => {
    const { status, body } = toWireError(INVALID_API_KEY, String(request.id));
    return reply.code(status).send(body);
  });
}

/**
 * Counts the statements the server sends to its database while answering requests (through
 * MikroORM's one method, or as prepared statements on its pool); those of its background jobs (the last-used batches, the email outbox) are
 * not counted, as they happen whatever the requests are.
 */
export function countQueries(server: LfkServer): () => number {
  const inRequest = new AsyncLocalStorage<true>();
  // Everything the server does for a request starts in its HTTP server's 'request' listener.
  const http = server.app.server;
  for (const listener of http.listeners('request') as ((...args: unknown[]) => void)[]) {
    http.off('request', listener);
    http.on('request', (...args: unknown[]) => inRequest.run(true, () => listener(...args)));
  }
  const connection = server.db.orm.em.getConnection() as unknown as {
    executeQuery: (...args: unknown[]) => Promise<unknown>;
  };
  const execute = connection.executeQuery.bind(connection);
  let count = 0;
  connection.executeQuery = (...args) => {
    if (inRequest.getStore()) count++;
    return execute(...args);
  };
  // Prepared statements (runPrepared) go to MikroORM's pool directly, the only callers of Pool#query.
  const poolQuery = pg.Pool.prototype.query as (...args: unknown[]) => unknown;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    if (inRequest.getStore()) count++;
    return poolQuery.apply(this, args);
  } as typeof pg.Pool.prototype.query;
  return () => count;
}
