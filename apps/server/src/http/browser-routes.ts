import { type BrowserAnswer, callProcedure, preflightSubmission, restRoutes, type Services } from '@lfk/api';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendError } from './errors.ts';
import { type ContextForRequest, header } from './request-context.ts';
import { inputOf } from './rest-bridge.ts';

/** What a page's request may send besides the simple headers, and what it may read of the answer. */
export const PAGE_ALLOWED_HEADERS = 'content-type';
const EXPOSED_HEADERS = 'x-request-id, retry-after';

/** The procedure's CORS grant, said as headers at once, so a refusal after it is readable by the page too. */
const corsAnswer = (reply: FastifyReply): BrowserAnswer => ({
  allowOrigin: (origin) => reply.headers({ 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': EXPOSED_HEADERS }),
  redirectTo() {},
  formFound() {},
});

/**
 * The routes a form's pages call from their own origin (`transport: 'browser'`: drafts): JSON in
 * and out as through the REST bridge, with the CORS grant the procedure decides, and a preflight
 * for each path, granted to the form's own origins by the rule its submissions' preflight uses.
 */
export function registerBrowserRoutes(app: FastifyInstance, services: Services, contextFor: ContextForRequest): void {
  const routes = restRoutes.filter((route) => route.transport === 'browser');
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        try {
          const ctx = await contextFor(request, reply, corsAnswer(reply));
          const result = await callProcedure(ctx, route.procedure, inputOf(route, request));
          return reply.code(route.status).send(result);
        } catch (error) {
          return sendError(error, request, reply);
        }
      },
    });
  }
  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
  for (const [path, methods] of methodsByPath) {
    app.options(path, async (request, reply) => {
      try {
        const origin = await preflightSubmission(services, (request.params as { form_id: string }).form_id, header(request, 'origin'));
        return reply
          .code(204)
          .headers({
            'access-control-allow-origin': origin,
            vary: 'Origin',
            'access-control-allow-methods': methods.join(', '),
            'access-control-allow-headers': PAGE_ALLOWED_HEADERS,
            'access-control-max-age': '600',
          })
          .send();
      } catch (error) {
        return sendError(error, request, reply);
      }
    });
  }
}
