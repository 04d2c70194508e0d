/**
 * Builds the installable CLI into dist/: its own sources bundled with what it takes from the
 * workspace (`@lfk/client`, `@lfk/vocabulary`) and the tRPC client, as ESM for Node 22.19+.
 * commander and undici stay dependencies, installed beside it by npm.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'rolldown';
import packageJson from '../package.json' with { type: 'json' };

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const dependencies = Object.keys(packageJson.dependencies);

await rm(dist, { recursive: true, force: true });
await build({
  cwd: root,
  input: { main: 'src/main.ts' },
  platform: 'node',
  // The workspace's packages are read from their TypeScript sources, as in the repository.
  resolve: { conditionNames: ['lfk-source', 'node', 'import', 'default'] },
  external: (id) => id.startsWith('node:') || dependencies.some((name) => id === name || id.startsWith(`${name}/`)),
  transform: { target: 'node22.19' },
  output: { dir: dist, format: 'esm', chunkFileNames: 'chunks/[name]-[hash].js' },
});
