import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The paths the dashboard's router owns. A deep link or a reload of any of them gets the app's
 * page, which then draws the right screen. Nothing else is the app's: `/v1`, `/trpc`, the health
 * routes and every unknown path keep their own answers (an unknown `/v1/...` stays a JSON 404).
 */
export const DASHBOARD_PATHS = ['/', '/sign-in', '/sign-up', '/forgot-password', '/welcome', '/device', '/invitations/*', '/w/*'] as const;

/**
 * What the app's page may load: its own scripts, styles, images and API, nothing inline and
 * nothing from elsewhere. Vite's build has no inline script, so `'self'` is all it needs.
 */
const CONTENT_SECURITY_POLICY = [
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
].join('; ');

/** The headers of the app's page, in one place. */
const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  // The page names the current build's files, so it is revalidated on every visit.
  'cache-control': 'no-cache',
} as const;

/** Built files have a content hash in their names: a browser keeps them for good. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** True when `dir` holds a built dashboard. */
export function isDashboardBuilt(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}

function sendPage(reply: FastifyReply): FastifyReply {
  return reply.headers(PAGE_HEADERS).sendFile('index.html');
}

/**
 * Serves the built dashboard from `dir`: its hashed assets under `/assets/`, and its page at each
 * of the app's paths. Only files present at start are routes (the build never changes under a
 * running server), so nothing here can shadow an API route.
 */
export async function registerDashboard(app: FastifyInstance, dir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    wildcard: false,
    index: false,
    // The page is only served by the routes below, with its headers; the compressed copies only
    // in place of the files they copy (preCompressed), never at their own URLs.
    globIgnore: ['index.html', '**/*.br', '**/*.gz'],
    cacheControl: false,
    // The build writes .br and .gz copies of its text files: sent as the browser accepts, as they are.
    preCompressed: true,
    setHeaders(reply, path) {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', path.includes('/assets/') ? ASSET_CACHE_CONTROL : 'no-cache');
    },
  });
  for (const path of DASHBOARD_PATHS) app.get(path, (_request, reply) => sendPage(reply));
}
