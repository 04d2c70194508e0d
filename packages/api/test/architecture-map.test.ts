import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest-routes.ts';
import { appRouter } from '../src/root.ts';

// docs/architecture.md's feature table, read as a reader would, and held to the code: no database.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FEATURES = join(ROOT, 'packages/api/src/features');
const COLUMNS = ['feature', 'procedures (router key)', 'rules & services', 'queries', 'jobs & sweeps', 'REST', 'CLI', 'dashboard', 'tests'];
const FEATURE = COLUMNS.indexOf('feature');
const PROCEDURES = COLUMNS.indexOf('procedures (router key)');
const REST = COLUMNS.indexOf('REST');

/** The lines between the two markers. */
function tableLines(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf('<!-- feature-map:start -->');
  const end = doc.indexOf('<!-- feature-map:end -->');
  if (start < 0 || end < start) throw new Error('docs/architecture.md has no <!-- feature-map:start --> … <!-- feature-map:end --> table');
  return doc
    .slice(start, end)
    .split('\n')
    .filter((line) => line.trim().startsWith('|'));
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());

/** The file names every feature folder may have, which no row repeats: the sentence before the table that begins "Not repeated in a row". */
function ownFileNames(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const before = doc.slice(0, doc.indexOf('<!-- feature-map:start -->')).replace(/\s+/g, ' ');
  const sentence = /Not repeated in a row[^.]*:([^:]*?)\.\s/.exec(before)?.[1];
  if (!sentence) {
    throw new Error('docs/architecture.md says nowhere before the table which files no row repeats ("Not repeated in a row …: `router.ts`, …")');
  }
  return [...sentence.matchAll(/`([^`/]+)`/g)].map((m) => m[1]!);
}

/** Every file below a folder, as paths relative to the repository root; tests aside (they have their own column). */
function sourceFilesIn(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

const [header, separator, ...rowLines] = tableLines();
const rows = rowLines.map(cellsOf);
/** What a cell names in backticks. */
const named = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const isPath = (token: string) => token.includes('/') && !token.startsWith('/');
const isRoute = (token: string) => token.startsWith('/');

describe('the feature table in docs/architecture.md', () => {
  it('has the agreed columns, and every row a value in each (— where none)', () => {
    expect(header && cellsOf(header)).toEqual(COLUMNS);
    expect(separator && cellsOf(separator).every((cell) => /^-+$/.test(cell))).toBe(true);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row, row[FEATURE]).toHaveLength(COLUMNS.length);
      for (const cell of row) expect(cell, `a cell of ${row[FEATURE]}`).not.toBe('');
    }
  });

  it('names only paths that exist, relative to the repository root (a trailing / is a folder)', () => {
    const missing: string[] = [];
    for (const row of rows) {
      for (const token of row.flatMap(named).filter(isPath)) {
        const path = join(ROOT, token);
        const ok = !token.includes('..') && existsSync(path) && (!token.endsWith('/') || statSync(path).isDirectory());
        if (!ok) missing.push(`${row[FEATURE]}: ${token}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has exactly one row for each folder of packages/api/src/features, and none for anything else', () => {
    const folders = readdirSync(FEATURES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(rows.map((row) => row[FEATURE]).sort()).toEqual(folders);
  });

  it('names every other source file of a feature folder in its row: the file itself, or a folder inside the feature folder', () => {
    const own = ownFileNames();
    expect(own).toContain('router.ts');
    const unnamed: string[] = [];
    for (const row of rows) {
      const folder = `packages/api/src/features/${row[FEATURE]}/`;
      const paths = row.flatMap(named).filter(isPath);
      const subfolders = paths.filter((path) => path.endsWith('/') && path.startsWith(folder) && path !== folder);
      for (const file of sourceFilesIn(folder)) {
        const inOwnFolder = !file.slice(folder.length).includes('/');
        if (inOwnFolder && own.includes(file.slice(folder.length))) continue;
        if (!paths.includes(file) && !subfolders.some((sub) => file.startsWith(sub))) unnamed.push(file);
      }
    }
    expect(unnamed).toEqual([]);
  });

  it("names every key of the app router in some row's procedures, and nothing there but router keys", () => {
    const keys = Object.keys(appRouter._def.record);
    const procedures = Object.keys(appRouter._def.procedures);
    const tokens = rows.flatMap((row) => named(row[PROCEDURES]!));
    const notKeys = tokens.filter((token) => !keys.includes(token) && !procedures.includes(token));
    expect(notKeys).toEqual([]);
    const unnamed = keys.filter((key) => !tokens.some((token) => token === key || token.startsWith(`${key}.`)));
    expect(unnamed).toEqual([]);
  });

  it('gives REST as prefixes of routes in restRoutes, and only in the REST column', () => {
    const paths = restRoutes.map((route) => route.path.split('/'));
    const matchesNone: string[] = [];
    for (const row of rows) {
      const cell = row[REST]!;
      const prefixes = named(cell).filter(isRoute);
      if (cell !== '—' && prefixes.length === 0) matchesNone.push(`${row[FEATURE]}: "${cell}" names no route`);
      for (const prefix of prefixes) {
        const segments = prefix.split('/');
        if (!paths.some((path) => segments.every((segment, i) => path[i] === segment))) matchesNone.push(`${row[FEATURE]}: ${prefix}`);
      }
      row.forEach((other, i) => {
        if (i !== REST && named(other).some(isRoute)) matchesNone.push(`${row[FEATURE]}: a route outside the REST column`);
      });
    }
    expect(matchesNone).toEqual([]);
  });
});
