import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_STYLE } from './html-page.ts';

/**
 * The policy an HTML answer is sent under: lfk's own small pages (a verification or reset link's,
 * a form post's thank-you and error pages: the default, for any HTML answer that names none), the
 * dashboard's app, and the API reference (Redoc).
 */
export type PagePolicy = 'page' | 'dashboard' | 'reference';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The policy of the HTML this route answers, when it is not one of lfk's own pages. */
    page?: PagePolicy;
  }
}

const csp = (...directives: string[]) => directives.join('; ');

/**
 * What every page gets: never drawn in a frame (clickjacking), never sniffed as another type, no
 * handle on it from a window another site opened, and no Referer sent from it: the pages of a link
 * carry its token in their path (`/v1/auth/password-resets/lfr_…`, the dashboard's
 * `/invitations/lfi_…`), which would reach another site, or a proxy's log, through the Referer.
 */
const EVERY_PAGE = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
} as const;

const POLICIES: Record<PagePolicy, Record<string, string>> = {
  // No script at all; the one inline style sheet by its hash; forms post only back here.
  page: {
    ...EVERY_PAGE,
    'content-security-policy': csp(
      "default-src 'none'",
      `style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`,
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ),
    // A page may show what its link's token opened (an address, a form's name): kept by no cache.
    'cache-control': 'no-store',
  },
  // The app's own scripts, styles, images and API, nothing inline (Vite's build has no inline script) and nothing from elsewhere.
  dashboard: {
    ...EVERY_PAGE,
    'content-security-policy': csp(
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ),
    // The page names the current build's files, so it is revalidated on every visit.
    'cache-control': 'no-cache',
  },
  // Redoc's script from here and the document it draws. It styles itself with styled-components,
  // which writes `<style>` elements at run time, and searches in a worker it starts from a `blob:` URL.
  reference: {
    ...EVERY_PAGE,
    'content-security-policy': csp(
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "font-src 'self'",
      "worker-src 'self' blob:",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ),
    'cache-control': 'no-cache',
  },
};

const HTML = /^\s*text\/html\b/i;

/**
 * The one home of HTML answers' security headers, called as every answer is sent (request-hooks.ts):
 * every answer whose type is HTML gets its route's policy (`config: { page }`), else the strictest,
 * whoever made it (a route, an error handler, a static file), so no page can be served without them.
 */
export function addPageHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const type = reply.getHeader('content-type');
  if (typeof type === 'string' && HTML.test(type)) reply.headers(POLICIES[request.routeOptions.config?.page ?? 'page']);
}
