import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The docs held to the repository, as a reader would read them: no database.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');

/** Whether a path relative to the repository root names what exists (a trailing / a folder). */
const exists = (path: string) => !path.includes('..') && existsSync(join(ROOT, path)) && (!path.endsWith('/') || statSync(join(ROOT, path)).isDirectory());

/**
 * What a doc names as a path in backticks: a token of lowercase path characters with a `/` in it or
 * a source file's ending (`packages/api/src/trpc.ts`, `bench/src/`, `docs/benchmarks.md`); routes
 * (`/v1`), package names (`@lfk/db`), commands and constants (`LISTEN/NOTIFY`) are not paths.
 */
function namedPaths(doc: string): string[] {
  const tokens = [...read(doc).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  return tokens.filter((token) => /^[a-z0-9_.-]+(\/[a-z0-9_.-]+)*\/?$/.test(token) && (token.includes('/') || /\.(tsx?|js|mjs|json|md)$/.test(token)));
}

/** The targets of a doc's relative Markdown links, as paths from the repository root, without their #anchor. */
function linkedPaths(doc: string): string[] {
  const targets = [...read(doc).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!.replace(/#.*$/, ''));
  return targets.filter((target) => target !== '' && !/^[a-z]+:/.test(target)).map((target) => join(dirname(doc), target));
}

describe('docs/how-it-works.md', () => {
  it('names only paths that exist, relative to the repository root (a trailing / is a folder)', () => {
    const paths = namedPaths('docs/how-it-works.md');
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => !exists(path))).toEqual([]);
  });

  it('links only to files that exist', () => {
    const paths = linkedPaths('docs/how-it-works.md');
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !exists(path))).toEqual([]);
  });
});
