import { hash } from 'node:crypto';
import { type BrowserAnswer, callProcedure, restRoutes } from '@lfk/api';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.ts';
import { alreadyHas } from './etags.ts';
import type { ContextForRequest } from './request-context.ts';

/**
 * How long a page (or a cache between) may use a description without asking again: short, since a
 * form may close or change at any time; asking again costs a 304 when nothing changed.
 */
const MAX_AGE_S = 60;

/**
 * `GET /v1/forms/{form_id}/public`: the procedure decides what a page may know of the form and which
 * origin may read it (`ctx.browser.allowOrigin`); this adds what makes it cheap to ask again, an
 * `ETag` over the answer's bytes and a 304 when the page already has them.
 */
export function registerPublicForms(app: FastifyInstance, contextFor: ContextForRequest): void {
  const route = restRoutes.find((r) => r.transport === 'public_form')!;
  app.get(route.path, async (request, reply) => {
    // The answer differs by origin (its CORS grant), so a shared cache keeps one per origin.
    reply.headers({ vary: 'Origin', 'cache-control': `public, max-age=${MAX_AGE_S}` });
    const browser: BrowserAnswer = {
      allowOrigin: (origin) => reply.headers({ 'access-control-allow-origin': origin, 'access-control-expose-headers': 'etag, x-request-id' }),
      redirectTo() {},
      formFound() {},
    };
    try {
      const ctx = await contextFor(request, reply, browser);
      const body = JSON.stringify(await callProcedure(ctx, route.procedure, request.params));
      const etag = `"${hash('sha256', body, 'base64url').slice(0, 22)}"`;
      reply.header('etag', etag);
      if (alreadyHas(request, etag)) return reply.code(304).send();
      return reply.code(200).type('application/json; charset=utf-8').send(body);
    } catch (error) {
      // A refusal is not to be kept: the form may exist, or open, a moment later.
      reply.header('cache-control', 'no-store');
      return sendError(error, request, reply);
    }
  });
}
