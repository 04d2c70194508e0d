import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The arrows between the workspace's packages point one way: apps (server, web, cli, bench) use
// packages (api, client, db, testing), never the reverse. A package's own tests may still run against
// a server through a devDependency, as packages/client's do; the server's test harness is
// `@lfk/server/testing`, not part of @lfk/testing, for that reason.

const REPO = join(import.meta.dirname, '..', '..', '..');

interface Workspace {
  name: string;
  dir: string;
  isApp: boolean;
  /** Every workspace package named in its package.json, by kind. */
  declared: { dependencies: string[]; peerDependencies: string[]; devDependencies: string[] };
  /** Each file (repo-relative) → the workspace packages it imports. */
  imports: Map<string, string[]>;
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === 'node_modules' || entry.name === 'dist'
        ? []
        : tsFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

function workspaces(): Workspace[] {
  const dirs = ['packages', 'apps'].flatMap((parent) => readdirSync(join(REPO, parent)).map((name) => join(parent, name)));
  const found = [...dirs, 'bench'].filter((dir) => existsSync(join(REPO, dir, 'package.json')));
  const manifests = found.map((dir) => ({ dir, json: JSON.parse(readFileSync(join(REPO, dir, 'package.json'), 'utf8')) }));
  const names = new Set(manifests.map((m) => m.json.name as string));
  const ours = (deps: Record<string, string> | undefined) => Object.keys(deps ?? {}).filter((name) => names.has(name));
  return manifests.map(({ dir, json }) => {
    const imports = new Map<string, string[]>();
    const files = [
      ...['src', 'test', 'testing', 'scripts'].flatMap((sub) => tsFiles(join(REPO, dir, sub))),
      ...readdirSync(join(REPO, dir))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(REPO, dir, f)),
    ];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // What the file imports, as the compiler reads it: not text that only looks like an import (a snippet in a string).
      const specifiers = ts
        .preProcessFile(text, true, true)
        .importedFiles.map((imported) => /^@lfk\/[^/]+/.exec(imported.fileName)?.[0])
        .filter((name): name is string => name !== undefined);
      imports.set(
        relative(REPO, file),
        [...new Set(specifiers)].filter((name) => names.has(name)),
      );
    }
    return {
      name: json.name,
      dir,
      isApp: !dir.startsWith('packages/'),
      declared: {
        dependencies: ours(json.dependencies),
        peerDependencies: ours(json.peerDependencies),
        devDependencies: ours(json.devDependencies),
      },
      imports,
    };
  });
}

const all = workspaces();
const apps = new Set(all.filter((w) => w.isApp).map((w) => w.name));

describe('the package graph', () => {
  it('finds the workspace', () => {
    expect(all.map((w) => w.name).sort()).toEqual(expect.arrayContaining(['@lfk/api', '@lfk/db', '@lfk/testing', '@lfk/server', '@lfk/cli', '@lfk/web']));
    expect([...apps].sort()).toEqual(['@lfk/bench', '@lfk/cli', '@lfk/server', '@lfk/web']);
  });

  it('no package names an app in its sources or in what it ships with (dependencies, peerDependencies)', () => {
    const upward: string[] = [];
    for (const w of all.filter((w) => !w.isApp)) {
      for (const kind of ['dependencies', 'peerDependencies'] as const) {
        for (const name of w.declared[kind]) if (apps.has(name)) upward.push(`${w.dir}/package.json ${kind}: ${name}`);
      }
      for (const [file, names] of w.imports) {
        if (!file.startsWith(`${w.dir}/src/`)) continue;
        for (const name of names) if (apps.has(name)) upward.push(`${file} imports ${name}`);
      }
    }
    expect(upward).toEqual([]);
  });

  // Packages only: apps/server's webhook test verifies a delivery with @lfk/client, whose own tests
  // run against the server, so declaring it would make the one cycle the next test forbids.
  it('every workspace package a package imports (sources, tests, scripts) is declared in its package.json', () => {
    const undeclared: string[] = [];
    for (const w of all.filter((w) => !w.isApp)) {
      const declared = new Set([w.name, ...w.declared.dependencies, ...w.declared.peerDependencies, ...w.declared.devDependencies]);
      for (const [file, names] of w.imports) for (const name of names) if (!declared.has(name)) undeclared.push(`${file} imports ${name}`);
    }
    expect(undeclared).toEqual([]);
  });

  it('has no cycle, counting every kind of dependency (so no package’s tests need one that needs it)', () => {
    const edges = new Map(all.map((w) => [w.name, [...w.declared.dependencies, ...w.declared.peerDependencies, ...w.declared.devDependencies]]));
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (name: string, path: string[]) => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' → '));
        return;
      }
      state.set(name, 'visiting');
      for (const next of edges.get(name) ?? []) visit(next, [...path, name]);
      state.set(name, 'done');
    };
    for (const name of edges.keys()) visit(name, []);
    expect(cycles).toEqual([]);
  });
});
