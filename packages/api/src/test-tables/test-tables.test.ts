/**
 * The tables' coverage, in seconds and without a server: every REST route has its row in the
 * authorization matrix, every body route its hostile-input case, each declared in the folder whose
 * code declares the route. A failure names the procedure and the file its row goes in. (The server's
 * suite checks the same before it runs the cells; this says it first.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RestRoute, restRoutes } from '../rest-routes.ts';
import { bodyRoutes } from './hostile.ts';
import { BODY_CASES, FEATURE_CASES, MATRIX } from './index.ts';

const FEATURES = join(import.meta.dirname, '..', 'features');
const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const isTestOnly = (file: string) => /\.(test|fixtures|access-cases|hostile-cases)\.ts$/.test(file);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const folders = readdirSync(FEATURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

/** `METHOD /path` → the feature folder whose code declares it (`rest('METHOD /path', …)`). */
const declaredIn = new Map<string, string>();
for (const folder of folders) {
  for (const file of filesUnder(join(FEATURES, folder)).filter((f) => !isTestOnly(f))) {
    for (const [, route] of readFileSync(file, 'utf8').matchAll(/rest\(\s*'((?:GET|POST|PUT|PATCH|DELETE) [^']+)'/g)) declaredIn.set(route!, folder);
  }
}

const fileFor = (route: RestRoute, kind: 'access' | 'hostile') => {
  const folder = declaredIn.get(routeKey(route));
  return folder ? `features/${folder}/${folder}.${kind}-cases.ts` : `the ${kind} cases of the folder that declares it`;
};

describe('the authorization matrix', () => {
  it('has a row for every REST route', () => {
    const rows = new Set(MATRIX.map((row) => row.route));
    const missing = restRoutes
      .filter((r) => !rows.has(routeKey(r)))
      .map((r) => `${r.procedure} (${routeKey(r)}) has no row: add one to ${fileFor(r, 'access')}`);
    expect(missing).toEqual([]);
  });

  it('has one row per route, and none for a route that is not one', () => {
    const routes = new Set(restRoutes.map(routeKey));
    const seen = new Set<string>();
    const wrong = MATRIX.flatMap((row) => {
      const problems = [...(seen.has(row.route) ? [`${row.route}: a second row`] : []), ...(routes.has(row.route) ? [] : [`${row.route}: not a REST route`])];
      seen.add(row.route);
      return problems;
    });
    expect(wrong).toEqual([]);
  });

  it('keeps each row in the folder that declares its route', () => {
    const misplaced = FEATURE_CASES.flatMap(({ folder, access }) =>
      access
        .filter((row) => declaredIn.get(row.route) !== folder)
        .map((row) => `${row.route}: in features/${folder}, declared in ${declaredIn.get(row.route) ?? 'no folder'}`),
    );
    expect(misplaced).toEqual([]);
  });
});

describe('the hostile-input tables', () => {
  it('have a case for every body route', () => {
    expect(bodyRoutes.length).toBeGreaterThan(0);
    const missing = bodyRoutes
      .filter((r) => !BODY_CASES[r.procedure])
      .map((r) => `${r.procedure} (${routeKey(r)}) has no case: add one to ${fileFor(r, 'hostile')}`);
    expect(missing).toEqual([]);
  });

  it('name only body routes, each in the folder that declares it', () => {
    const byProcedure = new Map(bodyRoutes.map((r) => [r.procedure as string, r]));
    const wrong = FEATURE_CASES.flatMap(({ folder, hostile = {} }) =>
      Object.keys(hostile).flatMap((procedure) => {
        const route = byProcedure.get(procedure);
        if (!route) return [`${procedure}: not a body route (features/${folder})`];
        const declared = declaredIn.get(routeKey(route));
        return declared === folder ? [] : [`${procedure}: in features/${folder}, declared in ${declared ?? 'no folder'}`];
      }),
    );
    expect(wrong).toEqual([]);
  });
});

describe('the one list (index.ts)', () => {
  it('names each folder that declares cases, once', () => {
    const listed = FEATURE_CASES.map((feature) => feature.folder);
    const withCases = folders.filter((folder) => readdirSync(join(FEATURES, folder)).some((file) => /\.(access|hostile)-cases\.ts$/.test(file)));
    expect(new Set(listed).size, 'a folder listed twice').toBe(listed.length);
    expect([...listed].sort()).toEqual(withCases.sort());
  });
});
