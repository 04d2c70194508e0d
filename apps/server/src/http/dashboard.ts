import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The paths the dashboard's router owns. A deep link or a reload of any of them gets the app's
 * page, which then draws the right screen. Nothing else is the app's: `/v1`, `/trpc`, the health
 * routes and every unknown path keep their own answers (an unknown `/v1/...` stays a JSON 404).
 */
export const DASHBOARD_PATHS = ['/', '/sign-in', '/sign-up', '/forgot-password', '/welcome', '/device', '/account', '/invitations/*', '/w/*'] as const;

/** Built files have a content hash in their names: a browser keeps them for good. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** True when `dir` holds a built dashboard. */
export function isDashboardBuilt(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
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
  // The page's headers are its policy's (page-headers.ts).
  for (const path of DASHBOARD_PATHS) app.get(path, { config: { page: 'dashboard' } }, (_request, reply) => reply.sendFile('index.html'));
}
