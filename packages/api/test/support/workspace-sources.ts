import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root. */
export const REPO = join(import.meta.dirname, '..', '..', '..', '..');

/** The source files under `dir` (absolute paths): TypeScript and JavaScript, not declarations, not installed or built. */
export function sourceFiles(dir: string, extensions = /\.tsx?$/): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? ['node_modules', 'dist'].includes(entry.name)
        ? []
        : sourceFiles(join(dir, entry.name), extensions)
      : extensions.test(entry.name) && !entry.name.endsWith('.d.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every workspace's folder: each of apps/ and packages/, and bench. */
export function workspaces(): string[] {
  return [...['apps', 'packages'].flatMap((parent) => readdirSync(join(REPO, parent)).map((name) => join(REPO, parent, name))), join(REPO, 'bench')];
}
