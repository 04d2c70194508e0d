import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

/** What is worth compressing: text. */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each built text file, once, at build time
 * and at the highest levels (a request then costs no compression): the server sends whichever
 * the browser accepts (@fastify/static's `preCompressed`). node:zlib does both; no plugin needed.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'lfk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const content = await readFile(path);
          await writeFile(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          await writeFile(`${path}.gz`, gzipSync(content, { level: 9 }));
        }),
      );
    },
  };
}

/** Where `npm run dev -w @lfk/web` sends API calls: a server started with `npm start`. */
const API = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), precompress()],
  // Workspace packages that are also published (@lfk/client) are read from their TypeScript sources.
  resolve: { conditions: ['lfk-source', ...defaultClientConditions] },
  build: {
    // The server sends a strict Content-Security-Policy: no inline script, so no inlined module preload.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      // The server's CSRF rule wants writes from its own origin: the proxy speaks as that origin.
      '/trpc': { target: API, headers: { origin: API } },
    },
  },
});
