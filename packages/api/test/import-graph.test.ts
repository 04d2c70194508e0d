import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The structure docs/architecture.md promises, checked on the source itself so it stays true.

const SRC = join(import.meta.dirname, '..', 'src');
const REPO = join(import.meta.dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Each file of packages/api/src (relative to it) → the files of it that it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file);
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((match) =>
      normalize(join(dirname(from), match[1]!)),
    );
    graph.set(from, targets);
  }
  return graph;
}

/** The layer a file belongs to; a file may import only from its own layer or the ones below. */
function layerOf(file: string): number {
  if (['index.ts', 'schemas.ts', 'root.ts', 'rest-routes.ts', 'testing.ts', 'background.ts'].includes(file)) return 3; // entry points (background.ts composes the runtime)
  if (file.startsWith('features/')) return 2;
  if (['trpc.ts', 'context.ts', 'services.ts'].includes(file) || file.startsWith('infrastructure/')) return 1;
  return 0; // credentials/, rate-limits/, errors, log, procedure meta, common schemas
}

const graph = importGraph();

describe('packages/api imports', () => {
  it('every relative import names a file that exists', () => {
    const missing = [...graph].flatMap(([from, targets]) => targets.filter((t) => !graph.has(t)).map((t) => `${from} → ${t}`));
    expect(missing).toEqual([]);
  });

  it('have no cycles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('point down: entry points → features → procedure builders and infrastructure → credentials, errors, schemas', () => {
    const upward = [...graph].flatMap(([from, targets]) =>
      targets.filter((t) => layerOf(t) > layerOf(from)).map((t) => `${from} → ${t}`),
    );
    expect(upward).toEqual([]);
  });

  it('between features form no cycle of folders', () => {
    const featureOf = (file: string) => (file.startsWith('features/') ? file.split('/')[1]! : null);
    const edges = new Set<string>();
    for (const [from, targets] of graph) {
      for (const target of targets) {
        const a = featureOf(from);
        const b = featureOf(target);
        if (a && b && a !== b) edges.add(`${a} → ${b}`);
      }
    }
    const both = [...edges].filter((edge) => edges.has(edge.split(' → ').reverse().join(' → ')));
    expect(both).toEqual([]);
  });

  // ipaddr.js is plain JavaScript with no dependencies: the dashboard parses an allowlist as the server does.
  it('keep schemas browser-safe: a schema module imports only zod, ipaddr.js, @lfk/vocabulary (or its re-export @lfk/db/constants) and other schema modules', () => {
    const isSchemaModule = (file: string) => file === 'common-schemas.ts' || /schemas\.ts$/.test(file);
    const offenders: string[] = [];
    for (const file of graph.keys()) {
      if (!isSchemaModule(file)) continue;
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const [, spec] of text.matchAll(/from\s*'([^']+)'/g)) {
        const allowed = spec === 'zod' || spec === 'ipaddr.js' || spec === '@lfk/vocabulary' || spec === '@lfk/db/constants' || (spec!.startsWith('.') && isSchemaModule(normalize(join(dirname(file), spec!))));
        if (!allowed) offenders.push(`${file} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('data access', () => {
  it('runs SQL only in packages/db: no execute( and no SQL text in the API or the server', () => {
    const product = [...sourceFiles(SRC), ...sourceFiles(join(REPO, 'apps', 'server', 'src'))];
    const sql = /\bexecute\(|\b(select|insert into|update|delete from)\b[^'`\n]*\b(from|set|values|where)\b/i;
    const offenders = product
      .filter((file) => readFileSync(file, 'utf8').split('\n').some((line) => !line.trim().startsWith('//') && !line.trim().startsWith('*') && sql.test(line)))
      .map((file) => relative(REPO, file));
    expect(offenders).toEqual([]);
  });
});
