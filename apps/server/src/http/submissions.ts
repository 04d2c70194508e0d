import { ApiError, createCaller, findSubmissionTarget, isOriginAllowed, restRoutes, type Services } from '@lfk/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError, sendErrorPage } from './errors.ts';
import { htmlPage } from './html-page.ts';
import { type ContextForRequest, header } from './request-context.ts';
import { isPlainObject } from './rest-bridge.ts';

export const SUBMISSION_BODY_LIMIT = 64 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A urlencoded body as field values; a name sent more than once becomes a list (which validation refuses). */
function parseFormBody(text: string): Record<string, string | string[]> {
  const values = new Map<string, string | string[]>();
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = values.get(name);
    values.set(name, seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]);
  }
  return Object.fromEntries(values);
}

/** A plain HTML `<form method="post">` from a browser: it wants a page back, not JSON. */
function isHtmlFormPost(request: FastifyRequest): boolean {
  const type = header(request, 'content-type') ?? '';
  return type.toLowerCase().startsWith(FORM_TYPE) && (header(request, 'accept') ?? '').includes('text/html');
}

/**
 * The CORS headers for a browser request from an origin on the form's list. Requests with an
 * `Authorization` header get none: a key is for servers, never browsers.
 */
function corsHeadersFor(request: FastifyRequest, target: Awaited<ReturnType<typeof findSubmissionTarget>>) {
  const origin = header(request, 'origin');
  if (!target || origin === undefined || header(request, 'authorization') !== undefined) return null;
  if (!isOriginAllowed(target, origin)) return null;
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/** `POST /v1/forms/{form_id}/submissions` (JSON or HTML form posts) and its CORS preflight. */
export async function registerSubmissions(
  app: FastifyInstance,
  services: Services,
  contextFor: ContextForRequest,
): Promise<void> {
  const route = restRoutes.find((r) => r.transport === 'submission')!;
  await app.register(async (scope) => {
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, body, done) => {
      done(null, parseFormBody(body as string));
    });

    scope.post(route.path, { bodyLimit: SUBMISSION_BODY_LIMIT }, async (request, reply) => {
      const htmlPost = isHtmlFormPost(request);
      try {
        const ctx = await contextFor(request, reply);
        const formId = (request.params as { form_id: string }).form_id;
        const target = await findSubmissionTarget(ctx.em, formId);
        const cors = corsHeadersFor(request, target);
        if (cors) reply.headers(cors);
        const data = request.body ?? {};
        if (!isPlainObject(data)) throw new ApiError('invalid_request', { message: 'The body must be an object of field values.' });
        const created = await createCaller(ctx).submissions.create({ form_id: formId, data });
        if (!htmlPost) return reply.code(201).send(created);
        if (target?.redirectUrl) return reply.code(303).header('location', target.redirectUrl).send();
        return reply
          .code(200)
          .type('text/html; charset=utf-8')
          .send(htmlPage('Thank you', ['Your submission was received.']));
      } catch (error) {
        return htmlPost
          ? sendErrorPage(error, request, reply, { title: 'The form was not sent', advice: 'Go back, correct it, and send it again.' })
          : sendError(error, request, reply);
      }
    });

    // Preflight: granted to the form's own origins only; anyone else gets no CORS headers.
    scope.options(route.path, async (request, reply) => {
      const formId = (request.params as { form_id: string }).form_id;
      const target = await findSubmissionTarget(services.db.fork(), formId);
      if (!target) return sendError(new ApiError('form_not_found'), request, reply);
      const cors = corsHeadersFor(request, target);
      if (!cors) return sendError(new ApiError('origin_not_allowed'), request, reply);
      return reply
        .code(204)
        .headers({
          ...cors,
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': 'content-type, idempotency-key',
          'access-control-max-age': '600',
        })
        .send();
    });
  });
}
