import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * Test-only files live beside the code they test: tests and their fixtures, the tables' rows a
 * feature declares, and the tables themselves (test-tables/). The package's own code never imports
 * them, so what it runs is the graph without them; the rules below are about that graph.
 */
const isTestOnly = (file: string) => /\.(test|fixtures|access-cases|hostile-cases)\.ts$/.test(file) || file.startsWith('test-tables/');

/** Each file of packages/api/src (relative to it) → the files it imports (a test's may be outside src: `../test/…`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file);
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((match) => normalize(join(dirname(from), match[1]!)));
    graph.set(from, targets);
  }
  return graph;
}

/** The layer a file belongs to; a file may import only from its own layer or the ones below. */
function layerOf(file: string): number {
  if (['index.ts', 'schemas.ts', 'root.ts', 'procedure-calls.ts', 'rest-routes.ts', 'testing.ts'].includes(file)) return 4; // entry points
  if (file.startsWith('composition/')) return 3; // builds the services of every feature
  if (file === 'features.ts' || file.startsWith('features/')) return 2; // FEATURES, and each feature
  if (['trpc.ts', 'context.ts', 'feature.ts', 'kernel-settings.ts'].includes(file) || file.startsWith('infrastructure/')) return 1; // the kernel
  return 0; // credentials/, rate-limits/, errors, log, metrics, procedure meta, common schemas
}

/**
 * The one upward edge allowed: `Services` (context.ts) is the kernel's members plus the ones each
 * feature names in its services.ts, imported as types only; a feature's wiring (feature.ts) names
 * what is opened for files the same way.
 */
const isFeatureServicesType = (from: string, target: string) => ['context.ts', 'feature.ts'].includes(from) && /^features\/[^/]+\/services\.ts$/.test(target);

const FEATURES = join(SRC, 'features');
const featureFolders = readdirSync(FEATURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

const graph = importGraph();
/** What the package runs: every file but the test-only ones. */
const product = new Map([...graph].filter(([file]) => !isTestOnly(file)));

describe('packages/api imports', () => {
  it('every relative import names a file that exists', () => {
    const missing = [...graph].flatMap(([from, targets]) => targets.filter((t) => !existsSync(join(SRC, t))).map((t) => `${from} → ${t}`));
    expect(missing).toEqual([]);
  });

  it('never reach a test-only file from what the package runs (tests, fixtures, *.access-cases.ts, *.hostile-cases.ts, test-tables/)', () => {
    expect(graph.size).toBeGreaterThan(product.size);
    const intoTests = [...product].flatMap(([from, targets]) => targets.filter(isTestOnly).map((t) => `${from} → ${t}`));
    expect(intoTests).toEqual([]);
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

  it('point down: entry points → composition → features → procedure builders and infrastructure → credentials, errors, schemas', () => {
    const upward = [...product].flatMap(([from, targets]) =>
      targets.filter((t) => layerOf(t) > layerOf(from) && !isFeatureServicesType(from, t)).map((t) => `${from} → ${t}`),
    );
    expect(upward).toEqual([]);
  });

  it("reach from the kernel into a feature only for the types of its services: context.ts's `import type` of features/*/services.ts", () => {
    const text = readFileSync(join(SRC, 'context.ts'), 'utf8');
    const intoFeatures = [...text.matchAll(/^import(\s+type)?\s.*from\s*'\.\/(features\/[^']+)'/gm)];
    expect(intoFeatures.length).toBeGreaterThan(0);
    expect(intoFeatures.filter(([, type, target]) => !type || !/^features\/[^/]+\/services\.ts$/.test(target!)).map(([line]) => line)).toEqual([]);
    // A feature's services.ts names types, so the kernel's import of it carries no code.
    const withValues = featureFolders
      .filter((f) => graph.has(`features/${f}/services.ts`))
      .filter((f) => /^export\s+(?!interface|type)/m.test(readFileSync(join(FEATURES, f, 'services.ts'), 'utf8')));
    expect(withValues).toEqual([]);
  });

  it('between features form no cycle of folders', () => {
    const featureOf = (file: string) => (file.startsWith('features/') ? file.split('/')[1]! : null);
    const edges = new Set<string>();
    for (const [from, targets] of product) {
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
  it('keep schemas browser-safe: a schema module imports only zod, ipaddr.js, @lfk/vocabulary and other schema modules', () => {
    const isSchemaModule = (file: string) => file === 'common-schemas.ts' || /schemas\.ts$/.test(file);
    const offenders: string[] = [];
    for (const file of product.keys()) {
      if (!isSchemaModule(file)) continue;
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const [, spec] of text.matchAll(/from\s*'([^']+)'/g)) {
        const allowed =
          spec === 'zod' ||
          spec === 'ipaddr.js' ||
          spec === '@lfk/vocabulary' ||
          (spec!.startsWith('.') && isSchemaModule(normalize(join(dirname(file), spec!))));
        if (!allowed) offenders.push(`${file} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('feature slices', () => {
  it('each features/ folder is one whole feature: a router.ts and a schemas.ts, and no router under another name', () => {
    const incomplete = featureFolders.filter((f) => !graph.has(`features/${f}/router.ts`) || !graph.has(`features/${f}/schemas.ts`));
    const otherRouters = [...graph.keys()].filter((file) => file.startsWith('features/') && file.endsWith('-router.ts'));
    expect(incomplete).toEqual([]);
    expect(otherRouters).toEqual([]);
  });

  it('the old grab-bags are gone: no features/accounts, and the inbox is named inbox (features/submissions is not)', () => {
    expect(featureFolders).not.toContain('accounts');
    expect(featureFolders).not.toContain('submissions');
    expect(featureFolders).toContain('inbox');
  });

  it("a feature is a module: each folder's feature.ts is in FEATURES, and builds every service its services.ts names", () => {
    const list = readFileSync(join(SRC, 'features.ts'), 'utf8');
    // Sessions' procedures are part of auth's router (sign-in and sign-out are one surface).
    const modules = featureFolders.filter((f) => f !== 'sessions');
    expect(modules.filter((f) => !graph.has(`features/${f}/feature.ts`) || !list.includes(`'./features/${f}/feature.ts'`))).toEqual([]);
    // A member may be built by another feature (webhooks provides forms' formStateEvents: forms cannot import webhooks).
    const wiring = modules
      .filter((f) => graph.has(`features/${f}/feature.ts`))
      .map((f) => readFileSync(join(FEATURES, f, 'feature.ts'), 'utf8'))
      .join('\n');
    const unbuilt = modules
      .filter((f) => graph.has(`features/${f}/services.ts`))
      .flatMap((f) => {
        const declared = readFileSync(join(FEATURES, f, 'services.ts'), 'utf8').match(/export interface \w+Services \{[\s\S]*?\n\}/)?.[0] ?? '';
        const members = [...declared.matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]!);
        return members.filter((member) => !new RegExp(`\\b${member}[:,]`).test(wiring)).map((member) => `${f}: ${member}`);
      });
    expect(unbuilt).toEqual([]);
  });
});

describe('data access', () => {
  it("runs SQL only in packages/db: no execute( and no SQL text in the API, the server or the server's test harness", () => {
    const code = [...sourceFiles(SRC), ...sourceFiles(join(REPO, 'apps', 'server', 'src')), ...sourceFiles(join(REPO, 'apps', 'server', 'testing'))].filter(
      (file) => !isTestOnly(relative(SRC, file)),
    );
    const sql = /\bexecute\(|\b(select|insert into|update|delete from)\b[^'`\n]*\b(from|set|values|where)\b/i;
    const offenders = code
      .filter((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .some((line) => !line.trim().startsWith('//') && !line.trim().startsWith('*') && sql.test(line)),
      )
      .map((file) => relative(REPO, file));
    expect(offenders).toEqual([]);
  });
});
