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

describe('docs/decisions.md', () => {
  const doc = read('docs/decisions.md');
  const lines = doc.split('\n');
  const firstTopic = lines.findIndex((line) => line.startsWith('## '));
  /** The contents list: the `- [Topic](#anchor) (issues …)` lines before the first topic. */
  const listed = lines
    .slice(0, firstTopic)
    .filter((line) => line.startsWith('- ['))
    .map((line) => {
      const m = /^- \[([^\]]+)\]\(#([^)]+)\)(?: \(issues? ([\d, ]+)\))?$/.exec(line);
      if (!m) throw new Error(`a line of the contents list is not "- [Topic](#anchor) (issues N, M)": ${line}`);
      return { title: m[1]!, anchor: m[2]!, issues: m[3] ? m[3].split(', ').map(Number) : [] };
    });
  /** Each `##` topic, with the issues its `###` entries name. */
  const topics = lines.flatMap((line, i) => {
    if (!line.startsWith('## ')) return [];
    const next = lines.findIndex((other, j) => j > i && other.startsWith('## '));
    const entries = lines.slice(i + 1, next < 0 ? undefined : next).filter((entry) => entry.startsWith('### '));
    const issues = new Set(entries.flatMap((entry) => [...entry.matchAll(/\bissues? (\d+)/g)].map((m) => Number(m[1]))));
    return [{ title: line.slice(3).trim(), issues: [...issues].sort((a, b) => a - b) }];
  });
  /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
  const anchorOf = (title: string) =>
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');

  it('lists every topic (## heading) at the top, in order, and nothing else', () => {
    expect(topics.length).toBeGreaterThan(5);
    expect(listed.map((item) => item.title)).toEqual(topics.map((topic) => topic.title));
  });

  it("links each listed topic to its heading's anchor", () => {
    expect(listed.map((item) => item.anchor)).toEqual(listed.map((item) => anchorOf(item.title)));
  });

  it("gives beside each topic the issues its entries' headings name", () => {
    expect(listed.map((item) => `${item.title}: ${[...item.issues].sort((a, b) => a - b).join(', ')}`)).toEqual(
      topics.map((topic) => `${topic.title}: ${topic.issues.join(', ')}`),
    );
  });

  it('keeps every entry (### heading) under a topic', () => {
    expect(lines.slice(0, firstTopic).filter((line) => line.startsWith('### '))).toEqual([]);
  });
});
