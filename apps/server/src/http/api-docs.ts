import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

/**
 * Redoc's sidebar credit shows Redocly's logo from their CDN. The page fetches nothing from
 * elsewhere (its CSP would refuse it, and log the refusal), so the served bundle shows an empty
 * image in its place; the credit's words and link stay.
 */
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const NO_LOGO = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E';

/**
 * The host page: Redoc's standalone bundle draws `<redoc spec-url>` on load (no inline script).
 * Both URLs are relative, so the page works behind a proxy that adds a path prefix.
 */
const page = (script: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lfk API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc spec-url="v1/openapi.json"></redoc>
<script src="${script}"></script>
</body>
</html>
`;

/** `/docs`: the API reference for people, drawn by Redoc from `/v1/openapi.json`, all served from here. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  const redocDir = dirname(require.resolve('redoc/package.json'));
  const { version } = JSON.parse(await readFile(join(redocDir, 'package.json'), 'utf8')) as { version: string };
  const bundle = (await readFile(join(redocDir, 'bundles', 'redoc.standalone.js'), 'utf8')).replace(REDOCLY_LOGO, NO_LOGO);
  // The version in the name lets a browser keep the file for good.
  const scriptPath = `docs/redoc-${version}.standalone.js`;
  const html = page(scriptPath);

  // Its headers are the reference policy's (page-headers.ts): the bundle's own script, its inline styles, its worker.
  app.get('/docs', { config: { page: 'reference' } }, (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  app.get(`/${scriptPath}`, (_request, reply) =>
    reply
      .headers({ 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=31536000, immutable' })
      .type('text/javascript; charset=utf-8')
      .send(bundle),
  );
}
