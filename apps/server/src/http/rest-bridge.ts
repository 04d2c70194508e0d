import { ApiError, type AppRouter, callProcedure, type RestRoute, refusal, restRoutes } from '@lfk/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';
import type { RequestContexts } from './request-context.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Path parameters win over body or query fields of the same name. A route that takes nothing but
 * its path refuses a body with fields, as a strict body refuses an unknown one: a field sent there
 * (a new `notify_email` to a resend) would otherwise be silently ignored.
 */
export function inputOf(route: RestRoute, request: FastifyRequest): unknown {
  const params = request.params as Record<string, string>;
  let rest: Record<string, unknown> = {};
  if (request.body !== undefined && route.from !== 'query' && !isPlainObject(request.body)) {
    throw new ApiError('invalid_request', { message: 'The request body must be a JSON object.' });
  }
  if (route.from === 'none' && isPlainObject(request.body)) {
    const unknown = Object.keys(request.body).filter((field) => !Object.hasOwn(params, field));
    if (unknown.length > 0) {
      throw new ApiError('invalid_request', {
        details: unknown.map((field) => ({ path: field, message: 'Not a field of this request: it takes nothing but its path.' })),
      });
    }
  }
  if (route.from === 'body' && request.body !== undefined) {
    rest = request.body as Record<string, unknown>;
  } else if (route.from === 'query') {
    rest = request.query as Record<string, unknown>;
  }
  return route.input === null && Object.keys(params).length === 0 ? undefined : { ...rest, ...params };
}

/** Registers every route of the REST table; each one calls its procedure and nothing else. */
export function registerRestBridge(app: FastifyInstance, contexts: RequestContexts): void {
  for (const route of restRoutes) {
    // Routes with their own HTTP side (form posts, HTML pages, pages' calls) are registered by their modules.
    if (route.transport) continue;
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const checked = await contexts.check(request);
        // The procedure would refuse these credentials first thing; refusing them here spares
        // building its context and calling it, and answering here spares Fastify's error path: a
        // flood of bad keys costs little.
        const refused = refusal(checked.auth);
        if (refused) return sendError(refused, request, reply);
        const result = await callProcedure(contexts.build(request, reply, checked), route.procedure, inputOf(route, request));
        reply.code(route.status);
        return route.status === 204 ? reply.send() : reply.send(result);
      },
    });
  }
}

export type { AppRouter };
