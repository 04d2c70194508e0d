import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

/** Where `npm run dev -w @lfk/web` sends API calls: a server started with `npm start`. */
const API = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
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
