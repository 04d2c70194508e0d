/**
 * Builds the installable package into dist/: `index.js`, one ES module with the browser kit's
 * sending, drafts and words bundled in (`@lfk/browser` is not published) and React left to the
 * app, marked "use client" for React Server Components; then its declarations (tsc), which name
 * `@lfk/client`'s types (a peer dependency) and React's.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'rolldown';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');

await rm(dist, { recursive: true, force: true });
await build({
  cwd: root,
  input: { index: 'src/index.ts' },
  platform: 'browser',
  resolve: { conditionNames: ['lfk-source', 'import', 'default'] },
  external: (id) => id === 'react' || id.startsWith('react/') || id.startsWith('@lfk/client'),
  transform: { target: 'es2022', jsx: { runtime: 'automatic' } },
  output: { dir: dist, format: 'esm', banner: '"use client";' },
});

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
if (!config) throw new Error('cannot read tsconfig.build.json');
const program = ts.createProgram(config.fileNames, config.options);
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
if (diagnostics.length > 0) {
  const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  throw new Error(ts.formatDiagnostics(diagnostics, host));
}
