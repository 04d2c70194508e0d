import {
  type BrowserAnswer,
  callProcedure,
  findVisitorFacts,
  preflightSubmission,
  restRoutes,
  sentValues,
  type Services,
  type VisitorFacts,
  visitorFactsOf,
} from '@lfk/api';
import type { FormReading } from '@lfk/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError, sendErrorPage, wireErrorOf } from './errors.ts';
import { htmlPage } from './html-page.ts';
import { backLink, notSentPage, thankYouPage } from './visitor-pages.ts';
import { type ContextForRequest, header } from './request-context.ts';
import multipart from '@fastify/multipart';
import { multipartUpload } from './multipart-upload.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * A plain HTML `<form method="post">` from a browser, in any encoding it may choose (a `text/plain`
 * one is refused, with a page too): it wants a page back, not JSON. A page's script that fetches
 * the answer asks for JSON (or anything), and gets JSON.
 */
function isHtmlFormPost(request: FastifyRequest): boolean {
  const type = (header(request, 'content-type') ?? '').toLowerCase();
  return !type.startsWith('application/json') && (header(request, 'accept') ?? '').includes('text/html');
}

const corsHeaders = (origin: string) => ({ 'access-control-allow-origin': origin, vary: 'Origin' });

/** What a page's submission may send besides the simple headers (its preflight grants these). */
export const SUBMISSION_ALLOWED_HEADERS = 'content-type, idempotency-key, lfk-draft';

/** The answer's headers a page may read besides the simple ones: to quote, and to know a replay. */
const EXPOSED_HEADERS = 'x-request-id, idempotent-replayed, retry-after';

interface BrowserFacts {
  /** Where to send the person (the form's `redirect_url`), if anywhere. */
  location: string | null;
  /** The origin the procedure granted, once it accepted the request's. */
  origin: string | null;
  /** The form, once the procedure found it: a refusal's answer is made from it (only then). */
  form: FormReading | null;
}

/** What the procedure tells the browser, as headers now (CORS) and as the answer later (redirect, page). */
function browserAnswer(reply: FastifyReply): BrowserAnswer & BrowserFacts {
  const answer: BrowserAnswer & BrowserFacts = {
    location: null,
    origin: null,
    form: null,
    allowOrigin(origin) {
      answer.origin = origin;
      reply.headers({ ...corsHeaders(origin), 'access-control-expose-headers': EXPOSED_HEADERS });
    },
    redirectTo(location) {
      answer.location = location;
    },
    formFound(form) {
      answer.form = form;
    },
  };
  return answer;
}

/** Back to the page the form was on when the browser said so and it is on the granted origin, else that origin's home. */
function backTo(request: FastifyRequest, origin: string | null): string | null {
  if (!origin) return null;
  const referer = URL.parse(header(request, 'referer') ?? '');
  if (referer?.origin === origin) return referer.href;
  return URL.canParse(origin) ? `${origin}/` : null;
}

/** `error_redirect_url` with the refusal's code and the fields at fault (`?error=validation_failed&fields=email,phone`). */
function errorLocation(errorRedirectUrl: string, code: string, details: readonly { path: string }[]): string {
  const url = new URL(errorRedirectUrl);
  url.searchParams.set('error', code);
  const fields = [...new Set(details.map((d) => d.path.split('.')[0]!).filter(Boolean))];
  if (fields.length > 0) url.searchParams.set('fields', fields.join(','));
  return url.href;
}

/**
 * A refused HTML form post: to the form's `error_redirect_url` (303) when it names one, else a
 * page in the visitor's words, each field by its label, leading back to the page the form was on
 * when that is one of the form's origins. `visitor` is null when there is no such form.
 */
function answerRefusal(error: unknown, request: FastifyRequest, reply: FastifyReply, visitor: VisitorFacts | null): FastifyReply {
  if (visitor?.errorRedirectUrl) {
    const { wire } = wireErrorOf(error, request);
    return reply
      .code(303)
      .header('location', errorLocation(visitor.errorRedirectUrl, wire.body.error.code, wire.body.error.details ?? []))
      .send();
  }
  const back = backTo(request, visitor?.origin ?? null);
  return sendErrorPage(error, request, reply, ({ status, body }, headers) => {
    const retryAfter = headers['retry-after'] === undefined ? null : Number(headers['retry-after']);
    return { ...notSentPage(body.error, status, visitor?.labels ?? {}, retryAfter), ...backLink(back) };
  });
}

/** What may be read past the files' limit before a refused body's connection is cut: its values and parts' headers. */
const DISCARD_SLACK = 1024 * 1024;

/**
 * A body refused before its end (the form refused it, a limit was crossed, a type was wrong) is
 * answered at once, with `Connection: close`, and what is left of it is read and dropped, never
 * stored: a client that sends its whole body before it reads (most HTTP libraries) then reads the
 * answer instead of a broken connection. Node would close such a connection as soon as the answer
 * is written, and the kernel answers what the client still sends to a closed socket with a reset,
 * which fails the client's writes (EPIPE, ECONNRESET) and can discard the answer before it is read.
 * So the connection is half-closed instead (the answer ends with our FIN) and lingers, reading and
 * dropping, until the client closes its side. Bounded: past `limit` bytes, or `lingerMs` after the
 * answer, the connection is cut.
 */
function discardRest(request: FastifyRequest, reply: FastifyReply, limit: number, lingerMs: number): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  reply.header('connection', 'close');
  const socket = raw.socket;
  socket.destroySoon = () => {
    socket.end();
    const cut = setTimeout(() => socket.destroy(), lingerMs).unref();
    socket.once('close', () => clearTimeout(cut));
  };
  raw.unpipe();
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limit) raw.destroy();
  });
  raw.resume();
}

/**
 * `POST /v1/forms/{form_id}/submissions` (JSON or HTML form posts) and its CORS preflight. The
 * procedure decides whether a submission is taken; this turns HTTP into the call, and the outcome
 * into JSON or, for an HTML post, a redirect or a page. The preflight's origin comes from
 * `preflightSubmission`, the rule the procedure itself applies.
 */
export async function registerSubmissions(
  app: FastifyInstance,
  services: Services,
  contextFor: ContextForRequest,
  /** How long a refused body's rest is read after the answer: as long as a whole request may take to arrive (`LFK_REQUEST_TIMEOUT`). */
  lingerMs: number,
): Promise<void> {
  const route = restRoutes.find((r) => r.transport === 'submission')!;
  await app.register(async (scope) => {
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, body, done) => {
      done(null, sentValues(new URLSearchParams(body as string)));
    });
    // Multipart bodies are not parsed ahead: the procedure reads one (`ctx.upload`) once the form admits it.
    await scope.register(multipart);

    scope.post(route.path, { bodyLimit: route.bodyLimit! }, async (request, reply) => {
      const htmlPost = isHtmlFormPost(request);
      const browser = browserAnswer(reply);
      const upload = request.isMultipart() ? multipartUpload(request) : null;
      try {
        const ctx = await contextFor(request, reply, browser, upload);
        const formId = (request.params as { form_id: string }).form_id;
        // The body is the values, whatever it holds: the procedure's input schema judges its shape.
        const data = (upload ? {} : (request.body ?? {})) as Record<string, unknown>;
        // The draft this submission completes, if the page kept one: a header, as the body is the values.
        const draft = header(request, 'lfk-draft');
        const created = await callProcedure(ctx, route.procedure, { form_id: formId, data, ...(draft !== undefined ? { draft } : {}) });
        if (!htmlPost) return reply.code(201).send(created);
        if (browser.location) return reply.code(303).header('location', browser.location).send();
        const thanks = thankYouPage(backTo(request, browser.origin));
        return reply
          .code(200)
          .type('text/html; charset=utf-8')
          .send(htmlPage(thanks.title, thanks.paragraphs, thanks));
      } catch (error) {
        if (upload) discardRest(request, reply, services.files.settings.maxSubmissionSize + DISCARD_SLACK, lingerMs);
        if (!htmlPost) return sendError(error, request, reply);
        return answerRefusal(error, request, reply, browser.form && visitorFactsOf(browser.form, header(request, 'origin')));
      }
    });
    // A post refused before the route's handler (a body too large, of a type no form takes) is
    // answered as one the form refused: its form is read here for what the answer needs.
    scope.setErrorHandler(async (error, request, reply) => {
      if (!isHtmlFormPost(request)) return sendError(error, request, reply);
      const formId = (request.params as { form_id?: string }).form_id ?? '';
      const visitor = await findVisitorFacts(services, formId, header(request, 'origin')).catch(() => null);
      return answerRefusal(error, request, reply, visitor);
    });

    // Preflight: granted to the form's own origins only; anyone else gets no CORS headers.
    scope.options(route.path, async (request, reply) => {
      const formId = (request.params as { form_id: string }).form_id;
      try {
        const origin = await preflightSubmission(services, formId, header(request, 'origin'));
        return reply
          .code(204)
          .headers({
            ...corsHeaders(origin),
            'access-control-allow-methods': 'POST',
            'access-control-allow-headers': SUBMISSION_ALLOWED_HEADERS,
            'access-control-max-age': '600',
          })
          .send();
      } catch (error) {
        return sendError(error, request, reply);
      }
    });
  });
}
