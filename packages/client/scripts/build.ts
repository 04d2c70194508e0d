/**
 * Builds the published package into dist/: ESM JavaScript and declarations from src/ (tsc), then
 * router.d.ts replaced by the self-contained router type, so nothing in dist/ reaches past
 * `@trpc/client` and `@trpc/server`.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { routerDeclarations } from './router-declarations.ts';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');

/** Emits JavaScript and declarations, and answers the program so its checker can read the router. */
function compile(tsconfigPath: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error(`cannot read ${tsconfigPath}`);
  const program = ts.createProgram(config.fileNames, config.options);
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(ts.formatDiagnostics(diagnostics, host));
  }
  return program;
}

await rm(dist, { recursive: true, force: true });
const program = compile(join(root, 'tsconfig.build.json'));
await writeFile(join(dist, 'router.d.ts'), routerDeclarations(program, join(root, 'src/router.ts')));
