import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ApiError } from '@lfk/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';
import { alreadyHas } from './etags.ts';
import { header } from './request-context.ts';

/** The browser kit as this server serves it: `@lfk/browser`'s build, read once at start. */
export interface Kit {
  /** `<package version>-<hash of the file>`: the versioned path's, which never changes content. */
  version: string;
  /** Its Subresource Integrity hash (`sha384-…`), of the very bytes served. */
  integrity: string;
  /** `/v1/kit/lfk-<version>.js`. */
  path: string;
  source: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

/** What `@lfk/browser`'s build writes (packages/browser/scripts/build.ts): the script, and its manifest. */
export function readKit(dir: string | undefined): Kit | null {
  if (dir === undefined || !existsSync(join(dir, 'lfk.js')) || !existsSync(join(dir, 'kit.json'))) return null;
  const source = readFileSync(join(dir, 'lfk.js'));
  const { version } = JSON.parse(readFileSync(join(dir, 'kit.json'), 'utf8')) as { version: string };
  return {
    version,
    integrity: `sha384-${createHash('sha384').update(source).digest('base64')}`,
    path: `/v1/kit/lfk-${version}.js`,
    source,
    // Compressed once, here: a request costs none.
    gzip: gzipSync(source, { level: 9 }),
    brotli: brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

/** `GET /v1/kit`: the kit's version, its versioned address, its integrity hash, and the tag that loads it with both. */
export function kitFacts(kit: Kit, publicUrl: string): { version: string; src: string; integrity: string; script_tag: string } {
  const src = `${publicUrl}${kit.path}`;
  return {
    version: kit.version,
    src,
    integrity: kit.integrity,
    script_tag: `<script src="${src}" integrity="${kit.integrity}" crossorigin="anonymous" defer></script>`,
  };
}

/** How long a page may keep `/v1/kit/lfk.js` before asking again (a 304 when nothing changed). */
const LATEST_MAX_AGE_S = 300;

function sendKit(kit: Kit, request: FastifyRequest, reply: FastifyReply, cacheControl: string): FastifyReply {
  const etag = `"${kit.version}"`;
  reply.headers({
    'content-type': 'text/javascript; charset=utf-8',
    'x-content-type-options': 'nosniff',
    // Any site may load it, and check it by its integrity hash (which needs a CORS answer).
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
    'cache-control': cacheControl,
    etag,
    vary: 'Accept-Encoding',
  });
  if (alreadyHas(request, etag)) return reply.code(304).send();
  const accepted = header(request, 'accept-encoding') ?? '';
  if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(kit.brotli);
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(kit.gzip);
  return reply.send(kit.source);
}

/**
 * `GET /v1/kit/lfk.js` (the newest kit, kept 5 minutes) and `GET /v1/kit/lfk-<version>.js` (this
 * version, kept for good), for any site; `GET /v1/kit` names the version and its integrity hash.
 * Without a build (`npm start` makes one) all three are 404.
 */
export function registerKit(app: FastifyInstance, kit: Kit | null, publicUrl: string): void {
  const missing = (request: FastifyRequest, reply: FastifyReply) =>
    sendError(
      new ApiError('not_found', {
        message: kit ? 'This server serves another version of the kit: /v1/kit/lfk.js is the newest.' : 'The browser kit is not built on this server.',
      }),
      request,
      reply,
    );
  // What a page needs to load this version: for the docs, the dashboard's snippet, a script of the owner's.
  const about = kit && kitFacts(kit, publicUrl);
  app.get('/v1/kit', (request, reply) => (about ? reply.header('cache-control', 'no-cache').send(about) : missing(request, reply)));
  app.get('/v1/kit/lfk.js', (request, reply) => (kit ? sendKit(kit, request, reply, `public, max-age=${LATEST_MAX_AGE_S}`) : missing(request, reply)));
  app.get('/v1/kit/lfk-:version.js', (request, reply) =>
    kit && (request.params as { version: string }).version === kit.version
      ? sendKit(kit, request, reply, 'public, max-age=31536000, immutable')
      : missing(request, reply),
  );
}
